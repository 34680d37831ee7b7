import type { Migration } from './types.js';

/**
 * Version 13: lineage (the image a job was made from, and how), the instance that ran a job when it asked
 * for any of a kind, and masks painted in the viewer. parent_image_id is not a foreign key: a job keeps its lineage
 * after its source is purged.
 */
export const migration0013: Migration = {
  version: 13,
  name: 'lineage',
  up(db) {
    db.exec(`
      ALTER TABLE jobs ADD COLUMN operation TEXT NOT NULL DEFAULT 'generate';
      ALTER TABLE jobs ADD COLUMN parent_image_id TEXT;
      ALTER TABLE jobs ADD COLUMN instance TEXT;
      CREATE INDEX jobs_parent_created ON jobs (parent_image_id, created_at, id) WHERE parent_image_id IS NOT NULL;
      CREATE TABLE masks (
        id TEXT PRIMARY KEY,
        image_id TEXT NOT NULL,
        path TEXT NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX masks_image ON masks (image_id);
    `);
  },
};
