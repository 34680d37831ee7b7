import type { Migration } from './types.js';

/** Version 1: jobs, their images, a favorites table, the event trace, settings. */
export const migration0001: Migration = {
  version: 1,
  name: 'initial',
  up(db) {
    db.exec(`
      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        status TEXT NOT NULL
          CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted')),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        started_at INTEGER,
        completed_at INTEGER,
        provider TEXT NOT NULL,
        model TEXT,
        prompt TEXT NOT NULL,
        negative_prompt TEXT,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        count INTEGER NOT NULL,
        request_json TEXT NOT NULL CHECK (json_valid(request_json)),
        progress_stage TEXT,
        progress_fraction REAL CHECK (progress_fraction IS NULL OR (progress_fraction >= 0 AND progress_fraction <= 1)),
        partial_images INTEGER NOT NULL DEFAULT 0 CHECK (partial_images >= 0),
        result_json TEXT CHECK (result_json IS NULL OR json_valid(result_json)),
        error_json TEXT CHECK (error_json IS NULL OR json_valid(error_json)),
        cancel_requested INTEGER NOT NULL DEFAULT 0 CHECK (cancel_requested IN (0, 1)),
        trashed_at INTEGER,
        idempotency_key_hash TEXT,
        request_fingerprint TEXT
      ) STRICT;
      CREATE INDEX jobs_created ON jobs (created_at, id);
      CREATE INDEX jobs_status_created ON jobs (status, created_at, id);
      CREATE UNIQUE INDEX jobs_idempotency ON jobs (idempotency_key_hash) WHERE idempotency_key_hash IS NOT NULL;

      CREATE TABLE images (
        id TEXT PRIMARY KEY,
        job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        idx INTEGER NOT NULL CHECK (idx >= 0),
        path TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        bytes INTEGER NOT NULL CHECK (bytes >= 0),
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        mime TEXT NOT NULL,
        thumb_path TEXT,
        UNIQUE (job_id, idx)
      ) STRICT;
      CREATE INDEX images_path ON images (path);

      CREATE TABLE favorites (
        job_id TEXT PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE job_events (
        job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        message TEXT NOT NULL,
        data_json TEXT CHECK (data_json IS NULL OR json_valid(data_json)),
        PRIMARY KEY (job_id, seq)
      ) STRICT;
      -- Append-only: the trace is evidence; rows leave only with their job.
      CREATE TRIGGER job_events_append_only BEFORE UPDATE ON job_events
      BEGIN SELECT RAISE(ABORT, 'job_events is append-only'); END;

      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value_json TEXT NOT NULL CHECK (json_valid(value_json)),
        updated_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
