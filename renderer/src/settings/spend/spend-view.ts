/** Settings → Spend's pure parts: dollars in words and what the person typed as a cap or a price. */

// Dollars in words live with the other formats (the viewer shows a job's cost too).
import { formatUsd } from '../../common/format';

export { formatUsd };

/** A price per image keeps its tenths of a cent ($0.039, $0.042), at least two decimals ($0.03). */
export function formatPrice(usd: number): string {
  const [whole, cents = ''] = usd.toFixed(4).split('.');
  return `$${whole}.${cents.replace(/0+$/, '').padEnd(2, '0')}`;
}

export type DollarsInput = { ok: true; usd: number | null } | { ok: false; message: string };

/**
 * A dollar amount as typed: blank is none (no cap, the default price), "$20" and "20.5" are dollars; anything else,
 * or more than `max`, is said back in words.
 */
export function parseDollars(text: string, max: number): DollarsInput {
  const trimmed = text.trim().replace(/^\$\s*/, '');
  if (trimmed === '') return { ok: true, usd: null };
  if (!/^\d{1,9}(\.\d{0,6})?$/.test(trimmed))
    return { ok: false, message: 'Type an amount in dollars, like 20 or 0.05.' };
  const usd = Number(trimmed);
  if (usd > max) return { ok: false, message: `At most ${formatUsd(max)}.` };
  return { ok: true, usd };
}

/** The figure a cap or price field starts with: blank for none, else the dollars without trailing zeros. */
export const dollarsField = (usd: number | null | undefined): string =>
  usd === null || usd === undefined ? '' : String(Number(usd.toFixed(6)));

/** How much of the cap is used, 0…1, for the meter; null without a cap. */
export function capShare(monthUsd: number, runningUsd: number, capUsd: number | null): number | null {
  if (capUsd === null) return null;
  if (capUsd <= 0) return 1;
  return Math.min(1, (monthUsd + runningUsd) / capUsd);
}

/** This month's days with spend, newest first, one line per provider and day. */
export function dayLines(
  providers: ReadonlyArray<{
    id: string;
    name: string;
    days: ReadonlyArray<{ day: string; usd: number; jobs: number }>;
  }>,
): Array<{ key: string; day: string; provider: string; usd: number; jobs: number }> {
  return providers
    .flatMap((p) =>
      p.days.map((d) => ({ key: `${d.day}/${p.id}`, day: d.day, provider: p.name, usd: d.usd, jobs: d.jobs })),
    )
    .sort((a, b) => (a.day === b.day ? a.provider.localeCompare(b.provider) : a.day < b.day ? 1 : -1));
}
