import type { StoreContext } from './context.js';
import type { Access } from './guard.js';

/** Where a job's cost came from: the provider's own figure, or the price table's. */
export type CostSource = 'reported' | 'estimated';

/** One paid job's cost as the ledger keeps it (migration 0018_job_costs.ts). */
export interface JobCostEntry {
  jobId: string;
  /** The provider instance that ran it (openai, comfyui-2…). */
  providerId: string;
  kind: string;
  model: string;
  /** Whole micro-dollars (1 USD = 1,000,000): sums stay exact. */
  usdMicros: number;
  source: CostSource;
  at: number;
  /** The local date it was recorded, YYYY-MM-DD (electron/spend/local-days.ts). */
  day: string;
}

export interface DayTotal {
  day: string;
  usdMicros: number;
  jobs: number;
}

/** Spend as recorded. Day ranges are half-open: from ≤ day < to, as YYYY-MM-DD strings. */
export interface CostReads {
  /** One provider's total over the days [from, to). */
  spentBetween(providerId: string, fromDay: string, toDay: string): number;
  /** One provider's totals per day over [from, to), oldest first; days without spend are left out. */
  dailyTotals(providerId: string, fromDay: string, toDay: string): DayTotal[];
  /** Whether any of one provider's costs over [from, to) is an estimate. */
  anyEstimated(providerId: string, fromDay: string, toDay: string): boolean;
  /** Every kind/model pair a cost was ever recorded for, by kind then model. */
  modelsUsed(): Array<{ kind: string; model: string }>;
  /** A job's recorded cost, if any. */
  costOf(jobId: string): JobCostEntry | undefined;
}

/** Spend written (each guarded as a write). */
export interface CostWrites {
  /** Records a job's cost; recording the same job again replaces it (a job is paid once). */
  recordCost(entry: JobCostEntry): void;
}

export type CostStore = CostReads & CostWrites;

interface CostRow {
  job_id: string;
  provider: string;
  kind: string;
  model: string;
  usd_micros: number;
  source: CostSource;
  at: number;
  day: string;
}

export function createCosts(ctx: StoreContext): Access<CostReads, CostWrites> {
  const { sql } = ctx;
  const sum = sql.prepare<{ total: number | null }>(
    'costs.spentBetween',
    'SELECT SUM(usd_micros) AS total FROM job_costs WHERE provider = ? AND day >= ? AND day < ?',
  );
  const perDay = sql.prepare<{ day: string; total: number; jobs: number }>(
    'costs.dailyTotals',
    `SELECT day, SUM(usd_micros) AS total, COUNT(*) AS jobs FROM job_costs
     WHERE provider = ? AND day >= ? AND day < ? GROUP BY day ORDER BY day`,
  );
  const estimated = sql.prepare(
    'costs.anyEstimated',
    "SELECT 1 FROM job_costs WHERE provider = ? AND day >= ? AND day < ? AND source = 'estimated' LIMIT 1",
  );
  const models = sql.prepare<{ kind: string; model: string }>(
    'costs.modelsUsed',
    'SELECT DISTINCT kind, model FROM job_costs ORDER BY kind, model',
  );
  const one = sql.prepare<CostRow>('costs.get', 'SELECT * FROM job_costs WHERE job_id = ?');
  const upsert = sql.prepare(
    'costs.record',
    `INSERT INTO job_costs (job_id, provider, kind, model, usd_micros, source, at, day)
     VALUES (@jobId, @providerId, @kind, @model, @usdMicros, @source, @at, @day)
     ON CONFLICT (job_id) DO UPDATE SET provider = excluded.provider, kind = excluded.kind, model = excluded.model,
       usd_micros = excluded.usd_micros, source = excluded.source, at = excluded.at, day = excluded.day`,
  );
  return {
    reads: {
      spentBetween: (providerId, fromDay, toDay) => sum.get(providerId, fromDay, toDay)?.total ?? 0,
      dailyTotals: (providerId, fromDay, toDay) =>
        perDay.all(providerId, fromDay, toDay).map((r) => ({ day: r.day, usdMicros: r.total, jobs: r.jobs })),
      anyEstimated: (providerId, fromDay, toDay) => estimated.get(providerId, fromDay, toDay) !== undefined,
      modelsUsed: () => models.all(),
      costOf(jobId) {
        const row = one.get(jobId);
        if (row === undefined) return undefined;
        return {
          jobId: row.job_id,
          providerId: row.provider,
          kind: row.kind,
          model: row.model,
          usdMicros: row.usd_micros,
          source: row.source,
          at: row.at,
          day: row.day,
        };
      },
    },
    writes: {
      recordCost(entry) {
        upsert.run({ ...entry, usdMicros: Math.max(0, Math.round(entry.usdMicros)) });
      },
    },
  };
}
