import type { GenerateRequest, JobDetail } from '../../shared/contract.js';
import type { JobStore } from '../db/types.js';

/** Submits stored per commit: bounds how long one batch holds the main loop (other requests wait that long). */
export const MAX_SUBMIT_BATCH = 50;

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
 * Group commit: submits that arrive in the same turn of the event loop are stored in one transaction. A burst of
 * 200 requests then costs a handful of commits instead of 200, and the loop turns between batches so a read
 * (jobs.stats, a page of history) waits for one batch, not for the whole burst.
 */
export function createSubmitBatcher(store: Pick<JobStore, 'submitMany'>, maxBatch = MAX_SUBMIT_BATCH): SubmitBatcher {
  const queue: Pending[] = [];
  let scheduled = false;

  const flush = (): void => {
    scheduled = false;
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
    // setImmediate runs after this turn's I/O callbacks: every request already read joins the batch.
    setImmediate(flush);
  }

  return {
    submit(request) {
      return new Promise((resolve, reject) => {
        queue.push({ request, resolve, reject });
        schedule();
      });
    },
  };
}
