import type { Migration } from './types.js';

/**
 * Version 24: sweeps (shared/sweep/): a base request and up to three axes, each cell a normal job. `sweep_jobs`
 * links a cell to every job it ran (a re-run adds a row; the newest rowid is the cell's job), so the grid is one
 * covering-index read of `sweep_jobs_cell`, `sweep:<id>` reads the same index, and a job finds its cell through
 * `sweep_jobs_job` (also what a purge's cascade needs). A purged job takes its link with it.
 */
export const migration0024: Migration = {
  version: 24,
  name: 'sweeps',
  up(db) {
    db.exec(`
      CREATE TABLE sweeps (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        axes_json TEXT NOT NULL CHECK (json_valid(axes_json)),
        base_json TEXT NOT NULL CHECK (json_valid(base_json)),
        cell_count INTEGER NOT NULL CHECK (cell_count >= 1),
        idempotency_key TEXT
      ) STRICT;
      CREATE INDEX sweeps_created ON sweeps (created_at, id);
      CREATE UNIQUE INDEX sweeps_idempotency ON sweeps (idempotency_key) WHERE idempotency_key IS NOT NULL;

      CREATE TABLE sweep_jobs (
        sweep_id TEXT NOT NULL REFERENCES sweeps (id) ON DELETE CASCADE,
        x INTEGER NOT NULL CHECK (x >= 0),
        y INTEGER NOT NULL CHECK (y >= 0),
        z INTEGER NOT NULL CHECK (z >= 0),
        job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE
      ) STRICT;
      CREATE INDEX sweep_jobs_cell ON sweep_jobs (sweep_id, z, y, x, job_id);
      CREATE UNIQUE INDEX sweep_jobs_job ON sweep_jobs (job_id);
    `);
  },
};
