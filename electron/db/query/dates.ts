import type { DateMatch } from '../../../shared/query/index.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Local midnight of the day `now` falls in (the person's calendar: the main process runs in their time zone). */
function startOfDay(ms: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

function startOf(text: string): number {
  const [y, m, d] = text.split('-').map(Number) as [number, number, number?];
  return new Date(y, m - 1, d ?? 1).getTime();
}

/** The first moment after a YYYY-MM or YYYY-MM-DD period. */
function endOf(text: string): number {
  const [y, m, d] = text.split('-').map(Number) as [number, number, number?];
  return d === undefined ? new Date(y, m, 1).getTime() : new Date(y, m - 1, d + 1).getTime();
}

/** [from, to) in epoch ms for a date: value, against the clock's now. */
export function dateRange(match: DateMatch, now: number): { from: number; to: number } {
  if ('relative' in match) {
    const today = startOfDay(now);
    if (match.relative === 'today') return { from: today, to: new Date(today).setDate(new Date(today).getDate() + 1) };
    const yesterday = new Date(today).setDate(new Date(today).getDate() - 1);
    return { from: yesterday, to: today };
  }
  if ('lastDays' in match) return { from: now - match.lastDays * DAY_MS, to: Number.MAX_SAFE_INTEGER };
  return { from: startOf(match.from), to: endOf(match.to) };
}
