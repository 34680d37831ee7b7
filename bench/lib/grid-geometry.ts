import type { Page } from 'playwright-core';

/**
 * The grid's row pitch read from the DOM: the median distance between consecutive distinct card tops on screen. A
 * justified grid's rows differ in height, so no fixed size is assumed.
 */
export async function rowPitch(page: Page): Promise<number> {
  const tops = (await page.evaluate(`(() => [...document.querySelectorAll('.grid-canvas .card[data-id]')].map((c) => Math.round(c.getBoundingClientRect().top)))()`)) as number[];
  const distinct = [...new Set(tops)].sort((a, b) => a - b);
  const gaps = distinct.slice(1).map((t, i) => t - distinct[i]!).filter((g) => g > 8).sort((a, b) => a - b);
  if (gaps.length === 0) throw new Error(`cannot read the grid's rows from ${tops.length} cards`);
  return gaps[Math.floor(gaps.length / 2)]!;
}
