/** Screenshots of the screen as it is, light then dark, each once its colours have settled (then back to light). */
import type { Page } from 'playwright-core';
import { screenshot } from './harness.js';
import { waitFor } from './helpers.js';

interface ThemeWindow {
  document: { body: unknown; querySelector(selector: string): unknown };
  getComputedStyle(el: unknown): { backgroundColor: string };
  requestAnimationFrame(callback: () => void): number;
}

/** How light the top dialog's ground (else the page's) is, 0 … 1. */
async function groundLuminance(page: Page): Promise<number> {
  const rgb = await page.evaluate(() => {
    const w = globalThis as unknown as ThemeWindow;
    return w.getComputedStyle(w.document.querySelector('dialog[open]') ?? w.document.body).backgroundColor;
  });
  const [r, g, b] = (rgb.match(/\d+/g) ?? []).map(Number) as [number, number, number];
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

/** Writes `<name>-light.png` and `<name>-dark.png`; a theme's colours may ease in, so each waits for its ground. */
export async function shootThemes(page: Page, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    const dark = colorScheme === 'dark';
    await waitFor(async () => (await groundLuminance(page)) < 0.3 === dark, `the ${colorScheme} theme`, 5_000);
    // Two frames: the theme's colours painted, not half-way.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const w = globalThis as unknown as ThemeWindow;
          w.requestAnimationFrame(() => w.requestAnimationFrame(resolve));
        }),
    );
    await screenshot(page, `${name}-${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
