import type { Page } from 'playwright-core';
import { frameStats, type FrameStats } from './frame-stats.js';

export interface ViewerFrames {
  failure: string | null;
  zoom: FrameStats | null;
  pan: FrameStats | null;
  /** Zoom levels the viewer showed (data-zoom), lowest and highest during the zoom run, and during the pan. */
  zoomRange: [number, number];
  panZoom: number;
  /** Frames in which the image's box changed: a run where nothing moved measured nothing. */
  zoomChangedFrames: number;
  panChangedFrames: number;
}

/**
 * Samples every frame's interval and whether the viewer's image box changed in it, until stopped. A string, not a
 * function: tsx would wrap named inner functions in a helper the page does not have.
 */
const START = `(() => {
  const s = (window.__viewerFrames = { intervals: [], changed: 0, zooms: [], stop: false });
  const img = document.querySelector('dialog img.zoom-image');
  const pane = document.querySelector('dialog .zoom-pane');
  let last = -1;
  let box = '';
  function tick(t) {
    if (last >= 0) s.intervals.push(t - last);
    last = t;
    const r = img.getBoundingClientRect();
    const now = r.x.toFixed(1) + ',' + r.y.toFixed(1) + ',' + r.width.toFixed(1);
    if (now !== box) s.changed += 1;
    box = now;
    s.zooms.push(Number(pane.getAttribute('data-zoom')));
    if (!s.stop) requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
})()`;
const STOP = `(() => { const s = window.__viewerFrames; s.stop = true; return { intervals: s.intervals, changed: s.changed, zooms: s.zooms }; })()`;

/** A run that measured nothing, and why. */
export const viewerNotMeasured = (failure: string | null): ViewerFrames => ({
  failure,
  zoom: null,
  pan: null,
  zoomRange: [NaN, NaN],
  panZoom: NaN,
  zoomChangedFrames: 0,
  panChangedFrames: 0,
});

interface Sampled {
  intervals: number[];
  changed: number;
  zooms: number[];
}

const zoomLevel = async (page: Page) => Number(await page.locator('dialog .zoom-pane').getAttribute('data-zoom'));

/**
 * Opens the job's card in the viewer (double-click), waits for its full `side`² image, then zooms with wheel steps
 * in and out for a few seconds, then drags the zoomed image around for a few seconds, sampling frames throughout.
 */
export async function measureViewer(page: Page, jobId: string, side: number): Promise<ViewerFrames> {
  const none = viewerNotMeasured(null);
  await page.evaluate(`document.querySelector('.grid-scroll').scrollTop = 0`);
  const card = page.locator(`.card[data-id="${jobId}"]`);
  await card.waitFor({ timeout: 10_000 });
  await card.dblclick();
  // If the double-click landed on one of the card's own controls, the keyboard's way in: focus the card, Enter.
  const opened = await page
    .locator('dialog img.zoom-image')
    .waitFor({ timeout: 5_000 })
    .then(
      () => true,
      () => false,
    );
  if (!opened) {
    await card.locator('[data-card], button').first().focus();
    await page.keyboard.press('Enter');
  }
  // A function, not a string: the page's CSP forbids eval.
  await page.waitForFunction(
    (n: number) => {
      const doc = (
        globalThis as unknown as {
          document: { querySelector(s: string): { complete: boolean; naturalWidth: number } | null };
        }
      ).document;
      const img = doc.querySelector('dialog img.zoom-image');
      return img !== null && img.complete && img.naturalWidth === n;
    },
    side,
    { timeout: 30_000, polling: 'raf' },
  );
  const pane = await page.locator('dialog .zoom-pane').boundingBox();
  if (pane === null) return { ...none, failure: 'the viewer has no zoom pane' };
  const cx = pane.x + pane.width / 2;
  const cy = pane.y + pane.height / 2;
  await page.mouse.move(cx, cy);
  const fitZoom = await zoomLevel(page);

  // Zoom: wheel steps in, then out, twice, about 40 ms apart (a quick hand on a wheel).
  await page.evaluate(START);
  for (let round = 0; round < 2; round += 1) {
    for (const dir of [-1, 1]) {
      for (let i = 0; i < 15; i += 1) {
        await page.mouse.wheel(0, dir * 100);
        await page.waitForTimeout(40);
      }
    }
  }
  await page.waitForTimeout(200);
  const zoomed = (await page.evaluate(STOP)) as Sampled;
  const zoomRange: [number, number] = [Math.min(...zoomed.zooms), Math.max(...zoomed.zooms)];
  if (zoomRange[1] <= fitZoom)
    return { ...none, zoomRange, failure: `the wheel did not zoom in (stayed at ${fitZoom}%)` };

  // Pan: zoomed well in, the button held, the pointer moving in loops across the pane for three seconds.
  for (let i = 0; i < 12; i += 1) await page.mouse.wheel(0, -100);
  await page.waitForTimeout(300);
  const panZoom = await zoomLevel(page);
  await page.evaluate(START);
  await page.mouse.down();
  const t0 = Date.now();
  for (let t = 0; t < 3_000; t = Date.now() - t0) {
    await page.mouse.move(
      cx + pane.width * 0.3 * Math.sin((2 * Math.PI * t) / 1_500),
      cy + pane.height * 0.3 * Math.sin((2 * Math.PI * t) / 1_100),
    );
  }
  await page.mouse.up();
  await page.waitForTimeout(200);
  const panned = (await page.evaluate(STOP)) as Sampled;
  await page.keyboard.press('Escape');
  await page
    .locator('dialog img.zoom-image')
    .waitFor({ state: 'detached', timeout: 5_000 })
    .catch(() => undefined);
  return {
    failure: panned.changed < 10 ? `the drag moved the image in only ${panned.changed} frames` : null,
    zoom: frameStats(zoomed.intervals),
    pan: frameStats(panned.intervals),
    zoomRange,
    panZoom,
    zoomChangedFrames: zoomed.changed,
    panChangedFrames: panned.changed,
  };
}
