/** The screen tour's shots: each state asserted in the light and the dark theme before its picture is taken. */
import type { Locator, Page } from 'playwright-core';
import { screenshot } from './harness.js';
import { waitFor } from './helpers.js';

export const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;
export type Size = (typeof SIZES)[number];
export const sizeName = (size: Size): string => `${size.width}x${size.height}`;

interface TourWindow {
  document: { body: unknown; querySelector(selector: string): unknown };
  getComputedStyle(el: unknown): { backgroundColor: string };
  requestAnimationFrame(callback: () => void): number;
  innerWidth: number;
  innerHeight: number;
}

/** How light the page's ground is, 0 … 1 (the body: dialogs may be translucent over it). */
async function groundLuminance(page: Page): Promise<number> {
  const rgb = await page.evaluate(() => {
    const w = globalThis as unknown as TourWindow;
    return w.getComputedStyle(w.document.body).backgroundColor;
  });
  const [r, g, b] = (rgb.match(/\d+/g) ?? []).map(Number) as [number, number, number];
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

/**
 * Writes tour-<screen>-<size>-<light|dark>.png, each after `check` passes in that theme. `frames: false` skips the
 * two-frame settle, for a page whose clock is held (requestAnimationFrame would never call back).
 */
export async function tourShot(
  page: Page,
  screen: string,
  size: Size,
  check: () => Promise<void>,
  frames = true,
): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    const dark = colorScheme === 'dark';
    await waitFor(async () => (await groundLuminance(page)) < 0.3 === dark, `the ${colorScheme} theme`, 5_000);
    await check();
    if (frames)
      await page.evaluate(
        () =>
          new Promise<void>((resolve) => {
            const w = globalThis as unknown as TourWindow;
            w.requestAnimationFrame(() => w.requestAnimationFrame(resolve));
          }),
      );
    await screenshot(page, `tour-${screen}-${sizeName(size)}-${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
}

/** Whether the element's box lies wholly inside the viewport. */
export async function insideViewport(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  if (box === null) return false;
  const { innerWidth, innerHeight } = await locator.page().evaluate(() => ({
    innerWidth: (globalThis as unknown as TourWindow).innerWidth,
    innerHeight: (globalThis as unknown as TourWindow).innerHeight,
  }));
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= innerWidth && box.y + box.height <= innerHeight;
}

/** Top of the first card and width of the grid, in CSS pixels. */
export const gridMeasure = (page: Page) =>
  page.evaluate(() => {
    const doc = (
      globalThis as unknown as {
        document: {
          querySelector(s: string): { getBoundingClientRect(): { top: number; width: number } } | null;
        };
      }
    ).document;
    return {
      firstCardTop: doc.querySelector('.grid-canvas .card')?.getBoundingClientRect().top ?? -1,
      gridWidth: doc.querySelector('.grid-canvas')?.getBoundingClientRect().width ?? -1,
    };
  });
