import { searchTextBefore21 } from '../fold.js';
import type { Migration } from './types.js';

/**
 * Version 2: favorites move onto the job row (so the history index can serve the favorite filter), a
 * Unicode-folded search column with a trigram full-text index kept in sync by triggers, a logical byte budget
 * maintained by triggers, and indexes for the trash, favorite and provider views.
 */
export const migration0002: Migration = {
  version: 2,
  name: 'search_favorite_budget',
  up(db) {
    db.exec(`
      ALTER TABLE jobs ADD COLUMN favorite INTEGER NOT NULL DEFAULT 0 CHECK (favorite IN (0, 1));
      UPDATE jobs SET favorite = 1 WHERE id IN (SELECT job_id FROM favorites);
      DROP TABLE favorites;

      ALTER TABLE jobs ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
      ALTER TABLE jobs ADD COLUMN logical_bytes INTEGER NOT NULL DEFAULT 0 CHECK (logical_bytes >= 0);
    `);

    // SQLite's lower() folds ASCII only: the folded copy is made in JS so 'ČERVENÁ' finds 'červená'.
    const rows = db.prepare('SELECT rowid AS rid, prompt, negative_prompt AS negative FROM jobs').all() as Array<{
      rid: number;
      prompt: string;
      negative: string | null;
    }>;
    const fold = db.prepare('UPDATE jobs SET search_text = ? WHERE rowid = ?');
    for (const row of rows) fold.run(searchTextBefore21(row.prompt, row.negative), row.rid);

    db.exec(`
      UPDATE jobs SET logical_bytes =
        length(CAST(request_json AS BLOB)) + length(CAST(search_text AS BLOB))
        + length(CAST(COALESCE(result_json, '') AS BLOB)) + length(CAST(COALESCE(error_json, '') AS BLOB)) + 256;

      -- External-content FTS over the folded prompt + negative prompt; case_sensitive 1 because it is pre-folded.
      CREATE VIRTUAL TABLE jobs_fts USING fts5 (
        search_text, content = 'jobs', content_rowid = 'rowid', tokenize = 'trigram case_sensitive 1'
      );
      INSERT INTO jobs_fts (jobs_fts) VALUES ('rebuild');
      CREATE TRIGGER jobs_fts_insert AFTER INSERT ON jobs BEGIN
        INSERT INTO jobs_fts (rowid, search_text) VALUES (new.rowid, new.search_text);
      END;
      CREATE TRIGGER jobs_fts_delete AFTER DELETE ON jobs BEGIN
        INSERT INTO jobs_fts (jobs_fts, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
      END;
      CREATE TRIGGER jobs_fts_update AFTER UPDATE OF search_text ON jobs BEGIN
        INSERT INTO jobs_fts (jobs_fts, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
        INSERT INTO jobs_fts (rowid, search_text) VALUES (new.rowid, new.search_text);
      END;

      -- One row holding the sum of jobs.logical_bytes, so admission never sums the whole table.
      CREATE TABLE store_totals (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        logical_bytes INTEGER NOT NULL
      ) STRICT;
      INSERT INTO store_totals (id, logical_bytes) SELECT 1, COALESCE(SUM(logical_bytes), 0) FROM jobs;
      CREATE TRIGGER jobs_bytes_insert AFTER INSERT ON jobs BEGIN
        UPDATE store_totals SET logical_bytes = logical_bytes + new.logical_bytes WHERE id = 1;
      END;
      CREATE TRIGGER jobs_bytes_delete AFTER DELETE ON jobs BEGIN
        UPDATE store_totals SET logical_bytes = logical_bytes - old.logical_bytes WHERE id = 1;
      END;
      CREATE TRIGGER jobs_bytes_update AFTER UPDATE OF logical_bytes ON jobs BEGIN
        UPDATE store_totals SET logical_bytes = logical_bytes - old.logical_bytes + new.logical_bytes WHERE id = 1;
      END;

      CREATE INDEX jobs_favorite_created ON jobs (created_at, id) WHERE favorite = 1;
      CREATE INDEX jobs_trash_created ON jobs (created_at, id) WHERE trashed_at IS NOT NULL;
      CREATE INDEX jobs_provider_created ON jobs (provider, created_at, id);
      CREATE INDEX images_thumb_path ON images (thumb_path) WHERE thumb_path IS NOT NULL;
    `);
  },
};
