import type { Migration } from './types.js';

/**
 * Version 17: queue control and paid work that survives a crash.
 * - `remote_json`: the provider's own handle for accepted work (electron/providers/types.ts RemoteTask, with the
 *   instance that took it), written before the result is awaited; a restart collects the job through it.
 * - `queue_rank`: where a queued job stands; null means its creation time, so a plain submit needs no rank and a
 *   reorder only writes the jobs it moves. The partial index serves the scheduler's walk of the queue.
 */
export const migration0017: Migration = {
  version: 17,
  name: 'queue_control',
  up(db) {
    db.exec(`
      ALTER TABLE jobs ADD COLUMN remote_json TEXT CHECK (remote_json IS NULL OR json_valid(remote_json));
      ALTER TABLE jobs ADD COLUMN queue_rank REAL;
      CREATE INDEX jobs_queue_order ON jobs (COALESCE(queue_rank, created_at), created_at, id) WHERE status = 'queued';
    `);
  },
};
