import type { StoreContext } from './context.js';
import type { Access } from './guard.js';
import type { CountStatement } from './count-worker.js';
import { registerModelUsageBest } from './model-usage-best.js';

/** The images made with one model or LoRA, by its folded name (jobs.model_key, job_loras.key). */
export interface UsageRow {
  key: string;
  /** As the person's tool wrote it (facet_values' label), for an entry only images know. */
  label: string;
  /** Images outside the trash, in jobs not wholly rejected. */
  images: number;
  lastUsedAt: number;
  /** The job holding the best of them: a favourite first, then the best rating, newest among equals. */
  bestJobId: string;
  /** That job's standing, to pick the best across names that turn out to be one file (higher is better). */
  bestRank: number;
}

export interface ModelUsage {
  models: UsageRow[];
  loras: UsageRow[];
  /** Each model name with a hash an imported file gave it (metadata's modelHash), lower case. */
  hashes: Array<{ key: string; hash: string }>;
}

export interface ModelUsageReads {
  /** Every model's and LoRA's use, answered from a copy while the library has not changed (total_changes). */
  usage(): ModelUsage;
  /**
   * The same read for another thread (count-pool.ts), so a library of a million jobs never holds this one: the
   * statements, the library's version, and how their rows become the usage (the same copy while the version holds).
   */
  usagePlan(): { statements: CountStatement[]; version: number; finish(rows: unknown[][][]): ModelUsage };
  /** The image a preview shows in a job: a favourite first, then the best rating, outside the trash, not rejected. */
  previewImage(jobId: string): { imageId: string; rating: number } | undefined;
}

const SHOWN = "j.status = 'succeeded' AND j.trashed_at IS NULL AND j.rejected = 0 AND j.count > j.trashed_images";
// A favourite ranks above any rating; one rank per 2^42 ms (past the year 2100) leaves the time to break ties, newest first.
const RANK = '((CASE WHEN j.favorite = 1 THEN 6 ELSE j.best_rating END) * 4398046511104 + j.created_at)';
const MODELS = `FROM jobs AS j INDEXED BY jobs_model_usage WHERE j.model_key IS NOT NULL AND ${SHOWN} GROUP BY j.model_key`;
const LORAS = `FROM job_loras AS jl JOIN jobs AS j INDEXED BY jobs_usage ON j.id = jl.job_id WHERE ${SHOWN} GROUP BY jl.key`;

/**
 * One GROUP BY per kind over the job roll-ups (best_rating, favorite, trashed_images: migration 0010; rejected: 0020)
 * read from covering indexes (migration 0025), never a jobs row: the counts, the newest, and the best job through
 * model_usage_best (a rank's job id; SQLite's bare column would need the query's only max()). Query plans:
 * test/unit/db/model-usage.test.ts.
 */
export const USAGE_SQL = {
  models: `SELECT j.model_key, sum(j.count - j.trashed_images), max(j.created_at), model_usage_best(${RANK}, j.id) ${MODELS}`,
  loras: `SELECT jl.key, sum(j.count - j.trashed_images), max(j.created_at), model_usage_best(${RANK}, j.id) ${LORAS}`,
  labels: `SELECT kind, key, label FROM facet_values WHERE kind IN ('model', 'lora') AND jobs > 0`,
  hashes: `SELECT DISTINCT model_key AS key, lower(json_extract(metadata_json, '$.modelHash')) AS hash
    FROM jobs INDEXED BY jobs_model_hash
    WHERE model_key IS NOT NULL AND json_extract(metadata_json, '$.modelHash') IS NOT NULL`,
  previewImage: `SELECT id, rating FROM images WHERE job_id = ? AND trashed_at IS NULL AND rejected = 0
    ORDER BY favorite DESC, rating DESC, idx LIMIT 1`,
} as const;

type Used = [key: string, images: number, last: number, best: string];

// model_usage_best's answer: the rank, a space, the job id (ranks are integers, ids have no space).
function rows(used: Used[], labels: Map<string, string>): UsageRow[] {
  return used.map(([key, images, last, best]) => {
    const space = best.indexOf(' ');
    return {
      key,
      label: labels.get(key) ?? key,
      images,
      lastUsedAt: last,
      bestJobId: best.slice(space + 1),
      bestRank: Number(best.slice(0, space)),
    };
  });
}

/** The usage reads in the order fromRows takes their rows. */
const USAGE_STATEMENTS: CountStatement[] = [
  { sql: USAGE_SQL.models, params: [] },
  { sql: USAGE_SQL.loras, params: [] },
  { sql: USAGE_SQL.labels, params: [] },
  { sql: USAGE_SQL.hashes, params: [] },
];

/** The usage from its reads' rows (models, loras, labels, hashes), read here or on the counting thread. */
function fromRows([models, loras, labelRows, hashRows]: unknown[][][]): ModelUsage {
  const labels = { model: new Map<string, string>(), lora: new Map<string, string>() };
  for (const [kind, key, label] of labelRows ?? [])
    if ((kind === 'model' || kind === 'lora') && typeof key === 'string' && typeof label === 'string')
      labels[kind].set(key, label);
  return {
    models: rows((models ?? []) as Used[], labels.model),
    loras: rows((loras ?? []) as Used[], labels.lora),
    hashes: (hashRows ?? [])
      .filter((r): r is [string, string] => typeof r[0] === 'string' && typeof r[1] === 'string' && r[1].length > 0)
      .map(([key, hash]) => ({ key, hash })),
  };
}

/** How many images each model and LoRA made, and the best of them (the model library's usage). */
export function createModelUsage(ctx: StoreContext): Access<ModelUsageReads, Record<never, never>> {
  const { sql } = ctx;
  registerModelUsageBest(ctx.db);
  const raw = (name: keyof typeof USAGE_SQL) =>
    sql.cached(`modelUsage.${name}`, `modelUsage.${name}`, () => USAGE_SQL[name], { raw: true });
  const labelRows = sql.prepare<{ kind: 'model' | 'lora'; key: string; label: string }>(
    'modelUsage.labels',
    USAGE_SQL.labels,
  );
  const hashRows = sql.prepare<{ key: string; hash: unknown }>('modelUsage.hashes', USAGE_SQL.hashes);
  const preview = sql.prepare<{ id: string; rating: number }>('modelUsage.previewImage', USAGE_SQL.previewImage);
  const version = sql.prepare<{ n: number }>('modelUsage.version', 'SELECT total_changes() AS n');
  let cached: { version: number; usage: ModelUsage } | undefined;

  const read = (): ModelUsage =>
    fromRows([
      raw('models').all() as unknown[][],
      raw('loras').all() as unknown[][],
      labelRows.all().map((r) => [r.kind, r.key, r.label]),
      hashRows.all().map((r) => [r.key, r.hash]),
    ]);

  return {
    reads: {
      usage() {
        const now = version.get()!.n;
        if (cached?.version !== now) cached = { version: now, usage: sql.time('modelUsage.read', read) };
        return cached.usage;
      },
      usagePlan() {
        const now = version.get()!.n;
        return {
          statements: USAGE_STATEMENTS,
          version: now,
          finish(found) {
            if (cached?.version !== now) cached = { version: now, usage: fromRows(found) };
            return cached.usage;
          },
        };
      },
      previewImage(jobId) {
        const row = preview.get(jobId);
        return row === undefined ? undefined : { imageId: row.id, rating: row.rating };
      },
    },
    writes: {},
  };
}
