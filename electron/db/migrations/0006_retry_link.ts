import type { Migration } from './types.js';

/**
 * Version 6: a retried job and its retry name each other (`retry_of` on the new job, `retried_as` on the old, the
 * newest retry when there were several), so both tiles can link without reading the event trace. Backfilled from
 * the retry_of events `jobs.retry` has always appended. A purged job leaves no dangling link (SET NULL).
 */
export const migration0006: Migration = {
  version: 6,
  name: 'retry_link',
  up(db) {
    db.exec(`
      ALTER TABLE jobs ADD COLUMN retry_of TEXT REFERENCES jobs (id) ON DELETE SET NULL;
      ALTER TABLE jobs ADD COLUMN retried_as TEXT REFERENCES jobs (id) ON DELETE SET NULL;
      -- Deleting a job looks up the rows that point at it: without these, every purge would scan all jobs.
      CREATE INDEX jobs_retry_of ON jobs (retry_of) WHERE retry_of IS NOT NULL;
      CREATE INDEX jobs_retried_as ON jobs (retried_as) WHERE retried_as IS NOT NULL;

      -- The newest retry_of event of each job (a bare column beside MAX takes that row's value).
      UPDATE jobs SET retry_of = src.original FROM (
        SELECT e.job_id AS id, json_extract(e.data_json, '$.originalId') AS original, MAX(e.seq)
        FROM job_events AS e WHERE e.kind = 'retry_of' GROUP BY e.job_id
      ) AS src
      WHERE jobs.id = src.id AND src.original IN (SELECT id FROM jobs);
      UPDATE jobs SET retried_as = src.retry FROM (
        SELECT r.retry_of AS original, r.id AS retry, MAX(r.created_at) FROM jobs AS r WHERE r.retry_of IS NOT NULL GROUP BY r.retry_of
      ) AS src
      WHERE jobs.id = src.original;
    `);
  },
};
