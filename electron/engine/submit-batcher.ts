import type { GenerateRequest, JobDetail } from '../../shared/contract.js';
import type { JobStore } from '../db/types.js';

/** Submits stored per commit: bounds how long one batch holds the main loop (other requests wait that long). */
export const MAX_SUBMIT_BATCH = 20;

/** In a burst, commits are at least this far apart (a submit then waits at most this long more). */
export const SUBMIT_WINDOW_MS = 5;
/** This many submits within one window make a burst. */
export const BURST_ARRIVALS = 4;

export interface SubmitBatcher {
  /** Resolves once the job is committed, with what store.submit() returns; rejects with its error. */
  submit(request: GenerateRequest): Promise<{ job: JobDetail; created: boolean }>;
}

interface Pending {
  request: GenerateRequest;
  resolve(value: { job: JobDetail; created: boolean }): void;
  reject(error: unknown): void;
}

/**
 * Group commit: submits that arrive close together are stored in one transaction. Each commit rewrites every page
 * the inserts touched (jobs, its indexes, the search index, the trace) and fills the WAL towards a checkpoint, so a
 * burst of 200 costs a few dozen commits instead of 200; the loop turns between batches, so a read (jobs.stats, a
 * page of history) waits for one batch, not for the whole burst.
 */
export function createSubmitBatcher(
  store: Pick<JobStore, 'submitMany'>,
  maxBatch = MAX_SUBMIT_BATCH,
  windowMs = SUBMIT_WINDOW_MS,
): SubmitBatcher {
  const queue: Pending[] = [];
  let scheduled = false;
  let lastFlush = -Infinity;
  /** When the last few submits arrived. */
  const arrivals: number[] = [];

  const flush = (): void => {
    scheduled = false;
    lastFlush = performance.now();
    const batch = queue.splice(0, maxBatch);
    if (queue.length > 0) schedule();
    try {
      const outcomes = store.submitMany(batch.map((p) => p.request));
      batch.forEach((pending, i) => {
        const outcome = outcomes[i]!;
        if (outcome.ok) pending.resolve(outcome.value);
        else pending.reject(outcome.error);
      });
    } catch (error) {
      // The transaction itself failed (a full disk at commit, a closed store): nothing in it was stored.
      for (const pending of batch) pending.reject(error);
    }
  };

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    const now = performance.now();
    // A submit is stored on the next turn of the loop. In a burst (BURST_ARRIVALS within one window: faster than a
    // client that waits for each answer) the next commit waits until windowMs after the previous one, so the
    // submits arriving meanwhile (over fresh connections Node hands them over one per turn) join it.
    const burst = arrivals.length === BURST_ARRIVALS && now - arrivals[0]! < windowMs;
    const wait = burst ? lastFlush + windowMs - now : 0;
    if (wait <= 0) setImmediate(flush);
    else setTimeout(flush, wait);
  }

  return {
    submit(request) {
      arrivals.push(performance.now());
      if (arrivals.length > BURST_ARRIVALS) arrivals.shift();
      return new Promise((resolve, reject) => {
        queue.push({ request, resolve, reject });
        schedule();
      });
    },
  };
}
