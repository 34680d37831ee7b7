/** Date headers in the grid: Today, Yesterday, This week, then months ("November 2026"), in the person's time zone. */

export interface DateBuckets {
  today: number;
  yesterday: number;
  /** Monday 00:00 of this week; may equal `today` or fall after `yesterday`. */
  week: number;
}

function startOfDay(at: number): number {
  const d = new Date(at);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

export function dateBuckets(now: number): DateBuckets {
  const today = startOfDay(now);
  const d = new Date(today);
  const yesterday = new Date(d.getFullYear(), d.getMonth(), d.getDate() - 1).getTime();
  // getDay(): Sunday is 0; the week starts on Monday.
  const sinceMonday = (d.getDay() + 6) % 7;
  const week = new Date(d.getFullYear(), d.getMonth(), d.getDate() - sinceMonday).getTime();
  return { today, yesterday, week };
}

const monthNames = new Map<number, string>();

/** The header a job made at `at` sits under. A clock ahead of this one (a future time) counts as today. */
export function dateLabel(at: number, buckets: DateBuckets): string {
  if (at >= buckets.today) return 'Today';
  if (at >= buckets.yesterday) return 'Yesterday';
  if (at >= buckets.week) return 'This week';
  const d = new Date(at);
  const key = d.getFullYear() * 12 + d.getMonth();
  let name = monthNames.get(key);
  if (name === undefined) {
    name = d.toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
    monthNames.set(key, name);
  }
  return name;
}
