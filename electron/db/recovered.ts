import type { GenerateRequest } from '../../shared/contract.js';
import type { StoreContext } from './context.js';
import type { Events } from './events.js';
import { searchTextOf } from './fold.js';
import { facetsOf } from './facets.js';
import type { Images } from './images.js';
import { createFileJobWriter } from './file-jobs.js';
import type { NewImage } from './records.js';
import type { Seed } from '../../shared/seed.js';

/** One library file's own record of the job that made it (its embedded `atelier` chunk), ready to store. */
export interface RecoveredImage {
  jobId: string;
  createdAt: number;
  request: Omit<GenerateRequest, 'idempotencyKey'>;
  provider: string;
  model?: string;
  seed?: Seed;
  revisedPrompt?: string;
  image: NewImage;
}

export interface RecoveredBatch {
  jobs: number;
  images: number;
  /** Files some image row already references, or whose job already has an image at that index. */
  known: number;
}

/** Writes jobs back from their images' embedded settings: succeeded, at their original time, idempotently. */
export function createRecovered(ctx: StoreContext, images: Images, events: Events) {
  const { sql } = ctx;
  const pathKnown = sql.prepare<{ one: number }>(
    'recovered.pathKnown',
    'SELECT 1 AS one FROM images WHERE path = ? LIMIT 1',
  );
  const jobStatus = sql.prepare<{ status: string }>('recovered.jobStatus', 'SELECT status FROM jobs WHERE id = ?');
  const slotTaken = sql.prepare<{ one: number }>(
    'recovered.slotTaken',
    'SELECT 1 AS one FROM images WHERE job_id = ? AND idx = ?',
  );
  const writeJob = createFileJobWriter(ctx);

  function insertJob(entry: RecoveredImage): void {
    const { request } = entry;
    const result: Record<string, unknown> = { timings: {} };
    if (entry.seed !== undefined) result.seed = entry.seed;
    if (entry.revisedPrompt !== undefined) result.revisedPrompt = entry.revisedPrompt;
    const searchText = searchTextOf(request.prompt);
    writeJob({
      id: entry.jobId,
      createdAt: entry.createdAt,
      provider: entry.provider,
      model: entry.model ?? request.model ?? null,
      request,
      count: request.count,
      result,
      searchText,
      facets: facetsOf({
        provider: entry.provider,
        model: entry.model ?? request.model ?? null,
        request,
        seeds: entry.seed === undefined ? [] : [entry.seed],
      }),
      source: 'atelier',
      metadata: undefined,
    });
    events.append(
      entry.jobId,
      'rebuilt',
      "Rebuilt from the image file's embedded settings after the history was lost.",
    );
  }

  const restoreTx = ctx.db.transaction((batch: RecoveredImage[]): RecoveredBatch => {
    const out: RecoveredBatch = { jobs: 0, images: 0, known: 0 };
    for (const entry of batch) {
      if (pathKnown.get(entry.image.path) !== undefined) {
        out.known += 1;
        continue;
      }
      const existing = jobStatus.get(entry.jobId);
      if (existing === undefined) {
        insertJob(entry);
        out.jobs += 1;
      } else if (
        existing.status === 'queued' ||
        existing.status === 'running' ||
        slotTaken.get(entry.jobId, entry.image.index) !== undefined
      ) {
        // A running job's file may be on disk before its row: that job records its own images when it commits.
        out.known += 1;
        continue;
      }
      images.insertAll(entry.jobId, [entry.image]);
      out.images += 1;
    }
    return out;
  });

  return {
    reads: {},
    writes: {
      restoreFromFiles(batch: RecoveredImage[]): RecoveredBatch {
        if (batch.length === 0) return { jobs: 0, images: 0, known: 0 };
        return sql.time('jobs.restoreFromFiles', () => restoreTx.immediate(batch));
      },
    },
  };
}
