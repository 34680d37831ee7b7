import type { CompiledQuery, Through } from './compile.js';

/** Up to this many matches, reading them through their own index and sorting them beats walking the history. */
export const SORT_MAX = 4_000;

/**
 * Where sorting a clause's rows stops paying, for a history of `total` jobs and a page of `want`: sorting R rows reads
 * each at random (~6 µs at a million images); walking reads want × total / R rows in order (~1 µs each), so the two
 * cost the same near R = √(want × total / 6). Never above SORT_MAX, never below a few pages.
 */
export function sortMaxFor(total: number, want: number): number {
  return Math.max(10 * want, Math.min(SORT_MAX, Math.round(Math.sqrt((want * total) / 6))));
}

export interface DriverChoice {
  indexedBy?: string;
  driverWhere?: { sql: string; params: unknown[]; through?: Through };
  /** For the trace and the tests: which clause drove the page, and how many rows it held. */
  label: string;
  /** The clause's rows are few and read out of history order: the page is a sort of all of them. */
  sorts?: boolean;
}

export interface Counter {
  /** Rows the driver's SQL selects, counted up to `cap` (index-only, so cheap even at a million rows). */
  (sql: string, params: unknown[], cap: number): number;
}

/**
 * Picks where a typed query starts reading, by how many rows each clause holds: the smallest, if few enough to sort;
 * else the one index that yields its rows already newest first; else the history index, newest first, filtering as
 * it goes (dense clauses fill a page within a few hundred rows).
 */
export function chooseDriver(
  compiled: CompiledQuery,
  count: Counter,
  walkIndex: string | undefined,
  sortMax = SORT_MAX,
): DriverChoice {
  let best: { rows: number; choice: DriverChoice } | null = null;
  let ordered: { rows: number; choice: DriverChoice } | null = null;
  for (const driver of compiled.drivers) {
    const known = Number.isSafeInteger(driver.rows) && driver.rows < Number.MAX_SAFE_INTEGER;
    const rows = known
      ? driver.rows
      : count(`SELECT 1 FROM jobs AS j INDEXED BY ${driver.index} WHERE ${driver.sql}`, driver.params, sortMax + 1);
    const choice = { indexedBy: driver.index, label: `${driver.index}:${rows}` };
    if (best === null || rows < best.rows) best = { rows, choice };
    if (driver.ordered && (ordered === null || rows < ordered.rows)) ordered = { rows, choice };
  }
  for (const driver of compiled.imageDrivers) {
    const rows = driver.rows ?? count(driver.probeSql, driver.params, sortMax + 1);
    const through = driver.through;
    const choice = {
      driverWhere: { sql: driver.sql, params: driver.params, ...(through !== undefined && { through }) },
      label: `${driver.name}:${rows}`,
    };
    if (best === null || rows < best.rows) best = { rows, choice };
    if (through !== undefined && (ordered === null || rows < ordered.rows)) ordered = { rows, choice };
  }
  // A clause read in history order (list-plan.ts `through`) needs no sort, however few its rows.
  if (best !== null && best.choice.driverWhere?.through !== undefined)
    return { ...best.choice, ...(best.rows <= sortMax && { sorts: true }) };
  if (best !== null && best.rows <= sortMax) return { ...best.choice, sorts: true };
  if (ordered !== null) return ordered.choice;
  return walkIndex === undefined ? { label: 'planner' } : { indexedBy: walkIndex, label: `walk:${walkIndex}` };
}
