import type { Page } from 'playwright-core';

/** Where each card on screen is: `.card[data-id]` boxes that intersect the grid's scroll box, at page time `now`. */
interface CardBoxes {
  now: number;
  cards: Record<string, Box>;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Cards of `before` that moved or resized by ≥ 1 px in `after`, or are gone from it; and the largest change. */
export function movedCards(
  before: Record<string, Box>,
  after: Record<string, Box>,
): { moved: number; maxMovePx: number } {
  let moved = 0;
  let maxMovePx = 0;
  for (const [id, a] of Object.entries(before)) {
    const b = after[id];
    const delta =
      b === undefined
        ? Infinity
        : Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y), Math.abs(a.w - b.w), Math.abs(a.h - b.h));
    if (delta >= 1) moved += 1;
    maxMovePx = Math.max(maxMovePx, delta);
  }
  return { moved, maxMovePx };
}

export interface FinishShift {
  /** Why the run could not measure, if it could not (the job finished before the first snapshot…). */
  failure: string | null;
  /** Sum of layout-shift values from the snapshot while running to the snapshot after the finish. */
  shift: number;
  /** Cards visible before the finish that moved or resized by ≥ 1 px, or left the screen. */
  moved: number;
  visible: number;
  /** The largest move or resize, px. */
  maxMovePx: number;
  /** Sum of layout-shift values from the submit to the snapshot while running (the job's card arriving). */
  startShift: number;
  /** Whether the running job had a card on screen before it finished. */
  cardWhileRunning: boolean;
  jobMs: number;
}

const INSTALL = `(() => {
  const shifts = (window.__shifts = []);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) shifts.push({ t: e.startTime, v: e.value, input: e.hadRecentInput });
  }).observe({ type: 'layout-shift', buffered: true });
})()`;

const SNAPSHOT = `(() => {
  const view = document.querySelector('.grid-scroll').getBoundingClientRect();
  const cards = {};
  for (const c of document.querySelectorAll('.card[data-id]')) {
    const r = c.getBoundingClientRect();
    if (r.bottom <= view.top || r.top >= view.bottom || r.right <= view.left || r.left >= view.right) continue;
    cards[c.getAttribute('data-id')] = { x: r.x, y: r.y, w: r.width, h: r.height };
  }
  return { now: performance.now(), cards };
})()`;

const shiftBetween = (page: Page, from: number, to: number) =>
  page.evaluate(
    `window.__shifts.filter((s) => !s.input && s.t > ${from} && s.t <= ${to}).reduce((a, s) => a + s.v, 0)`,
  ) as Promise<number>;

/** Two frames and `ms`: anything the last change set off has laid out and painted. */
const settle = (page: Page, ms: number) =>
  page.evaluate(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, ${ms}))))`);

export interface HostApi {
  call(channel: string, input: unknown): Promise<unknown>;
}

/**
 * With the grid at its top, submits `request` (a job that runs for a few seconds), snapshots every visible card's box
 * while it runs and again once its result's thumbnail has painted, and reads the layout shifts in between.
 */
export async function measureFinishShift(
  page: Page,
  api: HostApi,
  request: Record<string, unknown>,
): Promise<FinishShift> {
  await page.evaluate(INSTALL);
  await page.evaluate(`document.querySelector('.grid-scroll').scrollTop = 0`);
  await settle(page, 300);
  const submitted = (await page.evaluate('performance.now()')) as number;
  const started = Date.now();
  const { job } = (await api.call('jobs.submit', request)) as { job: { id: string } };
  const status = async () => ((await api.call('jobs.get', { id: job.id })) as { status: string }).status;
  const until = async (what: string, check: (s: string) => boolean, ms: number) => {
    const end = Date.now() + ms;
    for (let s = await status(); !check(s); s = await status()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what} (status ${s})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const base = {
    shift: NaN,
    moved: NaN,
    visible: 0,
    maxMovePx: NaN,
    startShift: NaN,
    cardWhileRunning: false,
    jobMs: NaN,
  };
  await until('the job to run', (s) => s !== 'queued', 60_000);
  // Its card and first preview land and lay out while it runs.
  await settle(page, 300);
  const before = (await page.evaluate(SNAPSHOT)) as CardBoxes;
  if ((await status()) !== 'running') return { ...base, failure: 'the job finished before the snapshot while running' };
  await until('the job to finish', (s) => s !== 'running', 180_000);
  const jobMs = Date.now() - started;
  if ((await status()) !== 'succeeded') return { ...base, jobMs, failure: `the job ended ${await status()}` };
  // A function, not a string: the page's CSP forbids eval.
  await page.waitForFunction(
    (id: string) => {
      const doc = (
        globalThis as unknown as {
          document: { querySelector(s: string): { complete: boolean; naturalWidth: number; src: string } | null };
        }
      ).document;
      const img = doc.querySelector(`.card[data-id="${id}"] img.thumb`);
      // The result's own thumbnail, not a partial preview.
      return img !== null && img.src.includes('/media/thumb/') && img.complete && img.naturalWidth > 0;
    },
    job.id,
    { timeout: 20_000, polling: 'raf' },
  );
  await settle(page, 500);
  const after = (await page.evaluate(SNAPSHOT)) as CardBoxes;
  const { moved, maxMovePx } = movedCards(before.cards, after.cards);
  return {
    failure: null,
    shift: await shiftBetween(page, before.now, after.now),
    moved,
    visible: Object.keys(before.cards).length,
    maxMovePx,
    startShift: await shiftBetween(page, submitted, before.now),
    cardWhileRunning: job.id in before.cards,
    jobMs,
  };
}
