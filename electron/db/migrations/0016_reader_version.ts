import type { Migration } from './types.js';

/**
 * Version 16: each imported job records the version of the readers that read its file (readers/reader-version.ts),
 * so an upgrade re-reads what older readers read. Jobs imported before this were read by version 1. Atelier's own
 * jobs (no metadata_json) keep null: nothing to re-read. The partial index serves the re-reader's walk, oldest
 * version first.
 */
export const migration0016: Migration = {
  version: 16,
  name: 'reader_version',
  up(db) {
    db.exec(`
      ALTER TABLE jobs ADD COLUMN reader_version INTEGER CHECK (reader_version IS NULL OR reader_version >= 0);
      UPDATE jobs SET reader_version = 1 WHERE metadata_json IS NOT NULL;
      CREATE INDEX jobs_reader_version ON jobs (reader_version, id) WHERE reader_version IS NOT NULL;
    `);
  },
};
