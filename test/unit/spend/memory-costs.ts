import type { CostStore, JobCostEntry } from '../../../electron/db/costs.js';

/** The ledger's writes and sums in memory, for the gate's tests (the SQL itself is tested in costs-ledger.test.ts). */
export function memoryCosts(): Pick<CostStore, 'spentBetween' | 'recordCost'> & { entries: Map<string, JobCostEntry> } {
  const entries = new Map<string, JobCostEntry>();
  return {
    entries,
    spentBetween: (providerId, fromDay, toDay) =>
      [...entries.values()]
        .filter((e) => e.providerId === providerId && e.day >= fromDay && e.day < toDay)
        .reduce((sum, e) => sum + e.usdMicros, 0),
    recordCost: (entry) => void entries.set(entry.jobId, entry),
  };
}

/** A clock the test sets. */
export function fakeClock(start: Date): { now: () => number; set: (at: Date) => void } {
  let t = start.getTime();
  return { now: () => t, set: (at) => void (t = at.getTime()) };
}
