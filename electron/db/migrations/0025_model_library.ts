import type { Migration } from './types.js';

/**
 * Version 25: the model library (electron/engine/model-library.ts).
 * - model_notes: a person's free note per library entry, by the entry's stable key (`<kind>:<hash or folded name>`).
 * - jobs_model_hash: each model name with the hash an imported file gave it (metadata_json's modelHash), so the
 *   library finds the images made with a file whatever name the tool wrote, from the index alone (model-usage.ts).
 * - jobs_model_usage and jobs_usage: the job roll-ups the library counts and ranks by, per model and per job id (for
 *   job_loras), so its one pass per kind reads indexes only and never a jobs row.
 */
export const migration0025: Migration = {
  version: 25,
  name: 'model_library',
  up(db) {
    db.exec(`
      CREATE TABLE model_notes (
        key TEXT PRIMARY KEY,
        note TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX jobs_model_hash ON jobs (model_key, json_extract(metadata_json, '$.modelHash'))
        WHERE model_key IS NOT NULL AND json_extract(metadata_json, '$.modelHash') IS NOT NULL;
      CREATE INDEX jobs_model_usage ON jobs
        (model_key, status, trashed_at, rejected, created_at, favorite, best_rating, count, trashed_images, id)
        WHERE model_key IS NOT NULL;
      CREATE INDEX jobs_usage ON jobs
        (id, status, trashed_at, rejected, created_at, favorite, best_rating, count, trashed_images);
    `);
  },
};
