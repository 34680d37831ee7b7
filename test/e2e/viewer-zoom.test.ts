import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, openApp, type App } from './harness.js';
import { apiCall, expectGrid, waitFor } from './helpers.js';

/**
 * The viewer as an artist uses it: edge to edge on dark in either theme, zoom by wheel, pinch and keys around the
 * pointer, 1:1 centred, pan by dragging, the zoom kept through a batch, and details that can be put away.
 */
const BATCH = 'two studies of a heron at dusk';
const SIDE = 1024;

let app: App;

/** The page's own globals, for code that runs in the page (this file is typed for Node). */
interface PageGlobals {
  getComputedStyle(element: unknown): { backgroundColor: string };
  PointerEvent: new (type: string, init: object) => Event;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const viewer = () => app.page.getByRole('dialog', { name: `Viewer: ${BATCH}` });
/** Read from the page itself: getBoundingClientRect recomputes style, so it sees the transform just set. */
const rect = (selector: string) =>
  viewer()
    .locator(selector)
    .evaluate((e): Box => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    });
const paneBox = () => rect('.zoom-pane');
const imageBox = () => rect('img.zoom-image');
const zoomLevel = async () => Number(await viewer().locator('.zoom-pane').getAttribute('data-zoom'));
/** The image pixel drawn at a page point. */
const pixelAt = (img: Box, x: number, y: number) => ({
  x: ((x - img.x) / img.width) * SIDE,
  y: ((y - img.y) / img.height) * SIDE,
});
const near = (a: number, b: number, within = 1.5) => expect(Math.abs(a - b)).toBeLessThanOrEqual(within);
const isNear = (a: number, b: number, within = 1.5) => Math.abs(a - b) <= within;
/** CDP acknowledges a key or mouse event before the page has run it (moves are aligned to frames): wait for the state, then measure. */
const until = (what: string, check: (img: Box) => boolean) => waitFor(async () => check(await imageBox()), what, 5_000);
const fitted = (pane: Box) =>
  until('the fitted image', (img) => isNear(img.height, pane.height) || isNear(img.width, pane.width));

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-viewer-zoom-',
    seed: async (host) => {
      const { job } = await apiCall(host, 'jobs.submit', {
        provider: 'builtin',
        prompt: BATCH,
        width: SIDE,
        height: SIDE,
        count: 2,
        steps: 2,
      });
      await waitFor(
        async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'succeeded',
        'the batch to finish',
        90_000,
      );
    },
    browser: { viewport: { width: 1280, height: 800 }, colorScheme: 'light' },
  });
  await expectGrid(app.page, [BATCH]);
}, 180_000);

afterAll(async () => {
  await app?.close();
});

describe('the viewer', () => {
  it('fills the window on a neutral dark ground even in the light theme, the image fitted and centred', async () => {
    const { page } = app;
    await page.getByRole('button', { name: BATCH, exact: true }).dblclick();
    await viewer().waitFor();
    await waitFor(
      () =>
        viewer()
          .locator('img.zoom-image')
          .evaluate(
            (i) =>
              (i as unknown as { complete: boolean; naturalWidth: number }).complete &&
              (i as unknown as { naturalWidth: number }).naturalWidth > 0,
          ),
      'the image',
    );
    const dialog = (await viewer().boundingBox())!;
    expect(dialog).toEqual({ x: 0, y: 0, width: 1280, height: 800 });
    const ground = await viewer()
      .locator('.viewer-stage')
      .evaluate((e) => (globalThis as unknown as PageGlobals).getComputedStyle(e).backgroundColor);
    expect(ground).toBe('rgb(16, 16, 16)');
    const pane = await paneBox();
    const img = await imageBox();
    // Fit: inside the pane, touching its short side, centred both ways.
    expect(img.height).toBeCloseTo(pane.height, 0);
    expect(img.x).toBeGreaterThanOrEqual(pane.x);
    expect(img.x + img.width).toBeLessThanOrEqual(pane.x + pane.width + 0.5);
    near(img.x - pane.x, pane.x + pane.width - (img.x + img.width));
    near(img.y - pane.y, pane.y + pane.height - (img.y + img.height));
    await screenshot(page, 'viewer-fit-light');
  });

  it('Ctrl+1 shows 1:1 centred on the image’s middle, Ctrl+0 fits again', async () => {
    const { page } = app;
    await page.keyboard.press('Control+1');
    await waitFor(async () => (await zoomLevel()) === 100, '1:1');
    const pane = await paneBox();
    const img = await imageBox();
    near(img.width, SIDE);
    const middle = pixelAt(img, pane.x + pane.width / 2, pane.y + pane.height / 2);
    near(middle.x, SIDE / 2);
    near(middle.y, SIDE / 2);
    await page.keyboard.press('Control+0');
    await fitted(pane);
  });

  it('the wheel zooms around the pointer: the pixel under it stays under it', async () => {
    const { page } = app;
    const pane = await paneBox();
    const at = { x: pane.x + pane.width * 0.6, y: pane.y + pane.height * 0.4 };
    await page.mouse.move(at.x, at.y);
    const before = pixelAt(await imageBox(), at.x, at.y);
    const level = await zoomLevel();
    // Chromium may deliver one wheel turn as several events: wait for all of it.
    await page.evaluate(() => {
      const w = globalThis as unknown as {
        __wheel: number;
        addEventListener(t: string, f: (e: { deltaY: number }) => void, capture: boolean): void;
      };
      w.__wheel = 0;
      w.addEventListener('wheel', (e) => (w.__wheel += e.deltaY), true);
    });
    await page.mouse.wheel(0, -300);
    await waitFor(
      async () => (await page.evaluate(() => (globalThis as unknown as { __wheel: number }).__wheel)) === -300,
      'the whole wheel turn',
    );
    expect(await zoomLevel()).toBeGreaterThan(level);
    const after = pixelAt(await imageBox(), at.x, at.y);
    near(after.x, before.x);
    near(after.y, before.y);
  });

  it('+ and − zoom by steps; dragging pans, and the image never leaves the pane', async () => {
    const { page } = app;
    const level = await zoomLevel();
    await page.keyboard.press('+');
    await waitFor(async () => (await zoomLevel()) > level, '+ to zoom in');
    await page.keyboard.press('-');
    await waitFor(async () => (await zoomLevel()) === level, '− to zoom back out');
    await page.keyboard.press('+');
    await waitFor(async () => (await zoomLevel()) > level, '+ to zoom in');
    const pane = await paneBox();
    await waitFor(
      async () => isNear((await imageBox()).width, (SIDE * (await zoomLevel())) / 100, SIDE / 100 + 1),
      'the drawn image to match the zoom level',
    );
    const start = await imageBox();
    await page.mouse.move(pane.x + 300, pane.y + 300);
    await page.mouse.down();
    await page.mouse.move(pane.x + 340, pane.y + 280, { steps: 4 });
    await page.mouse.up();
    await until(
      'the drag to pan by (40, −20)',
      (moved) => isNear(moved.x - start.x, 40) && isNear(moved.y - start.y, -20),
    );
    // A fling far past the edge stops with the image's corner on the pane's corner.
    await page.mouse.move(pane.x + 100, pane.y + 100);
    await page.mouse.down();
    await page.mouse.move(pane.x + 1200, pane.y + 750, { steps: 4 });
    await page.mouse.up();
    await until('the image’s corner on the pane’s corner', (edge) => isNear(edge.x, pane.x) && isNear(edge.y, pane.y));
    const edge = await imageBox();
    expect(edge.x + edge.width).toBeGreaterThan(pane.x + pane.width);
    expect(edge.y + edge.height).toBeGreaterThan(pane.y + pane.height);
    await screenshot(page, 'viewer-zoomed-light');
  });

  it('keeps the zoom and the place while stepping through the batch with → and ←', async () => {
    const { page } = app;
    const level = await zoomLevel();
    const before = await imageBox();
    const src = await viewer().locator('img.zoom-image').getAttribute('src');
    await page.keyboard.press('ArrowRight');
    await viewer().locator('.viewer-toolbar').getByText('Image 2 of 2').waitFor();
    await waitFor(
      async () => (await viewer().locator('img.zoom-image').getAttribute('src')) !== src,
      'the second image',
    );
    expect(await zoomLevel()).toBe(level);
    expect(await imageBox()).toEqual(before);
    await page.keyboard.press('ArrowLeft');
    await viewer().locator('.viewer-toolbar').getByText('Image 1 of 2').waitFor();
    await waitFor(
      async () => (await viewer().locator('img.zoom-image').getAttribute('src')) === src,
      'the first image',
    );
    expect(await imageBox()).toEqual(before);
  });

  it('two pointers pinch: apart zooms in around their middle', async () => {
    const { page } = app;
    await page.keyboard.press('Control+0');
    const pane = await paneBox();
    await fitted(pane);
    const mid = { x: pane.x + pane.width / 2 + 40, y: pane.y + pane.height / 2 - 30 };
    const before = pixelAt(await imageBox(), mid.x, mid.y);
    const level = await zoomLevel();
    await viewer()
      .locator('.zoom-pane')
      .evaluate((el, m) => {
        const send = (type: string, id: number, x: number, y: number) =>
          el.dispatchEvent(
            new (globalThis as unknown as PageGlobals).PointerEvent(type, {
              pointerId: id,
              pointerType: 'touch',
              isPrimary: id === 1,
              clientX: x,
              clientY: y,
              bubbles: true,
              cancelable: true,
            }),
          );
        send('pointerdown', 1, m.x - 50, m.y);
        send('pointerdown', 2, m.x + 50, m.y);
        for (let d = 60; d <= 150; d += 10) {
          send('pointermove', 1, m.x - d, m.y);
          send('pointermove', 2, m.x + d, m.y);
        }
        send('pointerup', 1, m.x - 150, m.y);
        send('pointerup', 2, m.x + 150, m.y);
      }, mid);
    const zoomed = await zoomLevel();
    // Pointers 100 px apart, then 300: three times the scale.
    near(zoomed / level, 3, 0.05);
    const after = pixelAt(await imageBox(), mid.x, mid.y);
    near(after.x, before.x);
    near(after.y, before.y);
  });

  it('details lead with the settings, hide with Shift+I or the Details button, and keep timings under Technical', async () => {
    const { page } = app;
    const details = viewer().getByRole('complementary', { name: 'Details' });
    await details.waitFor();
    const labels = await details.locator('.details-settings dt').allTextContents();
    // The builtin has no model name: Seed leads after the prompt.
    expect(labels).toEqual(['Seed', 'Steps', 'Size', 'Source']);
    expect(await details.locator('.details-settings dd').last().textContent()).toBe('Atelier, builtin');
    const technical = details.locator('details.details-technical');
    expect(await technical.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(false);
    expect(await details.getByText('Event trace').isVisible()).toBe(false);
    await technical.locator('summary').click();
    await details.getByText('Event trace').waitFor();
    const paneWith = (await paneBox()).width;
    await page.keyboard.press('Shift+I');
    await details.waitFor({ state: 'detached' });
    // The image gets the room.
    await waitFor(async () => (await paneBox()).width > paneWith, 'the pane to widen');
    await viewer().getByRole('button', { name: 'Details' }).click();
    await details.waitFor();
    await page.keyboard.press('Shift+I');
    await details.waitFor({ state: 'detached' });
    // Remembered the next time the viewer opens.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: BATCH, exact: true }).dblclick();
    await viewer().waitFor();
    expect(await details.count()).toBe(0);
    await viewer().getByRole('button', { name: 'Details' }).click();
    await details.waitFor();
  });

  it('is the same dark ground in the dark theme', async () => {
    const { page } = app;
    await page.emulateMedia({ colorScheme: 'dark' });
    const ground = await viewer()
      .locator('.viewer-stage')
      .evaluate((e) => (globalThis as unknown as PageGlobals).getComputedStyle(e).backgroundColor);
    expect(ground).toBe('rgb(16, 16, 16)');
    await screenshot(page, 'viewer-fit-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('in a narrow window the details stack below and the image refits to the smaller pane', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 800, height: 700 });
    await waitFor(async () => (await paneBox()).width === 800, 'the pane to take the whole narrow width');
    const pane = await paneBox();
    expect(await viewer().getByRole('complementary', { name: 'Details' }).isVisible()).toBe(true);
    await fitted(pane);
    await screenshot(page, 'viewer-narrow-light');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
