import type { StoreContext } from './context.js';
import type { Access } from './guard.js';

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

/** How many images each model and LoRA made, and the best of them (the model library's usage). */
export function createModelUsage(ctx: StoreContext): Access<ModelUsageReads, Record<never, never>> {
  const { sql } = ctx;
  // The job id of the highest rank in a group, with the rank: one pass where a bare column would take two.
  ctx.db.aggregate('model_usage_best', {
    start: () => ({ rank: -1, id: '' }),
    step: (best: { rank: number; id: string }, rank: number, id: string) => {
      if (rank > best.rank) {
        best.rank = rank;
        best.id = id;
      }
      return best;
    },
    result: (best: { rank: number; id: string }) => `${best.rank} ${best.id}`,
    // better-sqlite3's typings allow one argument per step; the aggregate takes two (rank, id).
  } as unknown as Parameters<StoreContext['db']['aggregate']>[1]);
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

  const read = (): ModelUsage => {
    const labels = { model: new Map<string, string>(), lora: new Map<string, string>() };
    for (const r of labelRows.all()) labels[r.kind].set(r.key, r.label);
    return {
      models: rows(raw('models').all() as Used[], labels.model),
      loras: rows(raw('loras').all() as Used[], labels.lora),
      hashes: hashRows
        .all()
        .filter((r): r is { key: string; hash: string } => typeof r.hash === 'string' && r.hash.length > 0)
        .map((r) => ({ key: r.key, hash: r.hash })),
    };
  };

  return {
    reads: {
      usage() {
        const now = version.get()!.n;
        if (cached?.version !== now) cached = { version: now, usage: sql.time('modelUsage.read', read) };
        return cached.usage;
      },
      previewImage(jobId) {
        const row = preview.get(jobId);
        return row === undefined ? undefined : { imageId: row.id, rating: row.rating };
      },
    },
    writes: {},
  };
}
