/**
 * `npm run bench -- ui-sweep`: a 20×20 sweep (400 cells, each a finished job with its image and thumbnail) made
 * through the engine on a scripted provider, then its grid opened in Chromium: frames per second while scrolling
 * (reading speed and a fling, down and across) and while zooming step by step every frame. Target 55+ fps.
 * `-- --no-pictures` hides the thumbnails: what is left is the grid's own work.
 */
import { defaultProviders } from '../electron/engine/default-providers.js';
import { buildRenderer, launchBrowser, rm, startHost, tempDir } from '../test/e2e/harness.js';
import type { ChannelName, ChannelOutput, ChannelRequest } from '../shared/contract.js';
import type { Host } from '../test/e2e/harness.js';
import { createScriptedProvider, scriptedEntry } from '../test/fakes/scripted-provider.js';
import { frameStats, formatFrames, type FrameStats } from './lib/frame-stats.js';

const SIDE = 20;

// The e2e helpers import vitest's expect, which only loads inside a test run: the bench calls the host itself.
async function apiCall<C extends ChannelName>(
  host: Host,
  channel: C,
  input: ChannelRequest<C>,
): Promise<ChannelOutput<C>> {
  const token = new URL(host.url).searchParams.get('token')!;
  const response = await fetch(`${host.origin}/api/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(input),
  });
  const body = (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
  if (!body.ok) throw new Error(`${channel}: ${body.error?.message}`);
  return body.value as ChannelOutput<C>;
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function withMean(intervals: number[]): FrameStats & { meanFps: number } {
  const total = intervals.reduce((a, b) => a + b, 0);
  return { ...frameStats(intervals), meanFps: (intervals.length / total) * 1000 };
}

export async function run(args: string[] = []): Promise<void> {
  // --no-pictures: the cells without their thumbnails, to tell the grid's own work from the pictures' raster.
  const noPictures = args.includes('--no-pictures');
  const renderer = await buildRenderer();
  const dataDir = await tempDir('atelier-bench-ui-sweep-');
  const scripted = createScriptedProvider('scripted', [{ kind: 'succeed', delayMs: 0, progressSteps: 1 }]);
  const host = await startHost({
    rendererDir: renderer.dir,
    dataDir,
    engine: { providers: [...defaultProviders(), scriptedEntry(scripted, 8)] },
  });
  try {
    const seeded = Date.now();
    const { sweep } = await apiCall(host, 'sweeps.start', {
      base: { provider: 'scripted', prompt: 'a lighthouse at dusk', width: 256, height: 320, count: 1 },
      axes: [
        { field: 'seed', values: `1-${SIDE}` },
        { field: 'steps', values: `1-${SIDE}` },
      ],
      name: 'bench 20 × 20',
    });
    await waitFor(
      async () => {
        const detail = await apiCall(host, 'sweeps.get', { id: sweep.id });
        return detail.succeeded === SIDE * SIDE;
      },
      'the 400 cells to finish',
      600_000,
    );
    const seedMs = Date.now() - seeded;

    const browser = await launchBrowser({
      viewport: { width: 1440, height: 900 },
      extraArgs: ['--disable-dev-shm-usage'],
    });
    try {
      const { page } = browser;
      page.on('console', (m) => {
        if (m.type() === 'error') console.error(`page: ${m.text()}`);
      });
      await page.goto(host.url);
      const opened = Date.now();
      await page.getByRole('region', { name: 'Sweeps' }).getByRole('button').first().click();
      await page.locator('dialog.sweep-view .sweep-cell img').first().waitFor({ timeout: 30_000 });
      const openMs = Date.now() - opened;
      // A constructed sheet: the page's CSP refuses a <style> element.
      if (noPictures)
        await page.evaluate(`(() => {
          const sheet = new CSSStyleSheet();
          sheet.replaceSync('.sweep-thumb { visibility: hidden; }');
          document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
        })()`);
      // From the whole page fitted to the window to cells 256 px wide: the grid then scrolls both ways.
      await page.locator('dialog.sweep-view .sweep-cell').first().focus();
      for (let i = 0; i < 6; i += 1) await page.keyboard.press('+');

      // Strings, not functions: tsx would wrap named inner functions in a helper the page does not have.
      const scroll = async (axis: 'top' | 'left', step: number, frames: number): Promise<FrameStats> => {
        const intervals = (await page.evaluate(`(async () => {
          const el = document.querySelector('.sweep-scroll');
          el.scrollTop = 0; el.scrollLeft = 0;
          const out = [];
          let last = performance.now();
          let direction = 1;
          await new Promise((resolve) => {
            function tick(t) {
              out.push(t - last);
              last = t;
              const before = el.scroll${axis === 'top' ? 'Top' : 'Left'};
              el.scroll${axis === 'top' ? 'Top' : 'Left'} += ${step} * direction;
              // At either end it turns back, so a short grid still gives every frame a scroll.
              if (el.scroll${axis === 'top' ? 'Top' : 'Left'} === before) direction = -direction;
              if (out.length > ${frames}) resolve();
              else requestAnimationFrame(tick);
            }
            requestAnimationFrame(tick);
          });
          return out.slice(1);
        })()`)) as number[];
        return withMean(intervals);
      };
      const zoom = async (frames: number): Promise<FrameStats> => {
        const intervals = (await page.evaluate(`(async () => {
          const cell = document.querySelector('dialog.sweep-view .sweep-cell[tabindex="0"]') ?? document.querySelector('dialog.sweep-view .sweep-cell');
          const out = [];
          let last = performance.now();
          let n = 0;
          await new Promise((resolve) => {
            function tick(t) {
              out.push(t - last);
              last = t;
              // Ten steps in, ten out, over and over: every frame lays the grid out at a new size.
              const key = Math.floor(n / 10) % 2 === 0 ? '+' : '-';
              n += 1;
              (document.activeElement ?? cell).dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
              if (out.length > ${frames}) resolve();
              else requestAnimationFrame(tick);
            }
            requestAnimationFrame(tick);
          });
          return out.slice(1);
        })()`)) as number[];
        return withMean(intervals);
      };
      const firstPass = await scroll('top', 33, 240);
      // The same again: every thumbnail it passes is now in the browser's cache, so what is left is the grid's own work.
      const reading = await scroll('top', 33, 240);
      const fling = await scroll('top', 200, 240);
      const across = await scroll('left', 100, 240);
      const zooming = await zoom(200);
      const cellsDrawn = await page.locator('dialog.sweep-view .sweep-cell').count();

      // The mean (frames over time, as the gallery's UI bench counts it) with the spread behind it.
      const fps = (s: FrameStats & { meanFps?: number }) => `${(s.meanFps ?? 0).toFixed(1)} fps; ${formatFrames(s)}`;
      const rows: [string, string, string][] = [
        [
          `seeding ${SIDE}×${SIDE} cells through the engine (not a product target)`,
          `${(seedMs / 1000).toFixed(1)} s`,
          '',
        ],
        ['grid open to its first thumbnail', `${openMs} ms`, ''],
        ['scroll down, reading speed, first pass (thumbnails loading)', fps(firstPass), ''],
        ['scroll down, reading speed (33 px/frame)', fps(reading), '55+ fps'],
        ['scroll down, fling (200 px/frame)', fps(fling), '55+ fps'],
        ['scroll across (100 px/frame)', fps(across), '55+ fps'],
        ['zoom a step every frame (+ / −)', fps(zooming), '55+ fps'],
        ['cells in the DOM at 256 px (virtualised)', `${cellsDrawn} of ${SIDE * SIDE}`, ''],
      ];
      console.log(
        `\nAtelier sweep grid bench: ${SIDE}×${SIDE} cells, Chromium headless, 1440×900${noPictures ? ', pictures hidden' : ''}\n`,
      );
      console.log('| measure | result | target |\n|---|---|---|');
      for (const [a, b, c] of rows) console.log(`| ${a} | ${b} | ${c} |`);
    } finally {
      await browser.close();
    }
  } finally {
    await host.stop();
    await rm(dataDir, { recursive: true, force: true });
    await renderer.remove();
  }
}
