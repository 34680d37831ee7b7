import type { Migration } from './types.js';

/**
 * Version 15: a person's corrections of what an imported file was read to say, and a free-text note per image.
 * Corrections sit beside the file's own settings (jobs.request_json and metadata_json stay what the file says, so a
 * re-read rewrites them freely): one row per corrected field, its value as JSON. A note is per image; `folded` is its
 * search form (note:word), and `job_id` lets a job's notes join its search text and the note: filter per job.
 * The search columns (jobs.search_text, model_key, steps…) hold the corrected values: electron/db/annotated-search.ts.
 */
export const migration0015: Migration = {
  version: 15,
  name: 'corrections_notes',
  up(db) {
    db.exec(`
      CREATE TABLE job_corrections (
        job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        field TEXT NOT NULL CHECK (
          field IN ('prompt', 'negativePrompt', 'model', 'seed', 'steps', 'guidance', 'sampler', 'width', 'height')
        ),
        value TEXT NOT NULL,
        corrected_at INTEGER NOT NULL,
        PRIMARY KEY (job_id, field)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE image_notes (
        image_id TEXT PRIMARY KEY REFERENCES images (id) ON DELETE CASCADE,
        job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        text TEXT NOT NULL CHECK (length(text) > 0),
        folded TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX image_notes_job ON image_notes (job_id);

      -- A job whose search text carries corrections or notes: the text as its file or request made it (base), and the
      -- text last written with them (written). A search text that no longer equals written was rewritten from the file.
      CREATE TABLE annotated_search (
        job_id TEXT PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
        base TEXT NOT NULL,
        written TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
