/**
 * Days and months as the person lives them: local time on this computer, from a clock the tests move. A cost's day is
 * fixed when it is recorded (migration 0018_job_costs.ts), so a month is the day range [first, first of next).
 */
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

const pad = (n: number): string => String(n).padStart(2, '0');
const ymd = (d: Date): string => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The local date of a moment, YYYY-MM-DD. */
export const localDay = (ms: number): string => ymd(new Date(ms));

export interface LocalMonth {
  /** YYYY-MM. */
  month: string;
  /** First day of the month and of the next, YYYY-MM-DD: the month is [fromDay, toDay). */
  fromDay: string;
  toDay: string;
  /** The day after `ms`'s day: today is [today, tomorrow). */
  today: string;
  tomorrow: string;
  /** "1 January 2027": when a cap starts over. */
  nextMonthLabel: string;
}

export function localMonth(ms: number): LocalMonth {
  const at = new Date(ms);
  const first = new Date(at.getFullYear(), at.getMonth(), 1);
  const next = new Date(at.getFullYear(), at.getMonth() + 1, 1);
  const tomorrow = new Date(at.getFullYear(), at.getMonth(), at.getDate() + 1);
  return {
    month: `${first.getFullYear()}-${pad(first.getMonth() + 1)}`,
    fromDay: ymd(first),
    toDay: ymd(next),
    today: ymd(at),
    tomorrow: ymd(tomorrow),
    nextMonthLabel: `1 ${MONTHS[next.getMonth()]} ${next.getFullYear()}`,
  };
}
