import type { Page } from 'playwright-core';

/**
 * The grid's row pitch read from the DOM: the median distance between consecutive distinct card tops on screen. A
 * justified grid's rows differ in height, so no fixed size is assumed.
 */
export async function rowPitch(page: Page): Promise<number> {
  const tops = (await page.evaluate(
    `(() => [...document.querySelectorAll('.grid-canvas .card[data-id]')].map((c) => c.getBoundingClientRect().top))()`,
  )) as number[];
  const pitch = pitchOf(tops);
  if (pitch === null) throw new Error(`cannot read the grid's rows from ${tops.length} cards`);
  return pitch;
}

/** The median gap between distinct row tops (cards within 8 px of each other share a row), or null for one row. */
export function pitchOf(tops: readonly number[]): number | null {
  const rows: number[] = [];
  for (const top of [...tops].sort((a, b) => a - b)) if (rows.length === 0 || top - rows.at(-1)! > 8) rows.push(top);
  const gaps = rows
    .slice(1)
    .map((t, i) => t - rows[i]!)
    .sort((a, b) => a - b);
  return gaps.length === 0 ? null : Math.round(gaps[Math.floor(gaps.length / 2)]!);
}
