import type { Migration } from './types.js';

/**
 * Version 8: images from other tools. Each job records the tool it came from; an imported job keeps what
 * its file said beyond the request (raw texts, LoRAs…). A linked image's file lives outside the data dir, at one
 * or more known locations (same SHA-256, one image). Imports are recorded before they start, file by file, so a
 * killed import resumes where it stopped. Folders are the allow-listed roots linked originals are served from.
 */
export const migration0008: Migration = {
  version: 8,
  name: 'library_import',
  up(db) {
    db.exec(`
      ALTER TABLE jobs ADD COLUMN source TEXT NOT NULL DEFAULT 'atelier';
      ALTER TABLE jobs ADD COLUMN metadata_json TEXT CHECK (metadata_json IS NULL OR json_valid(metadata_json));
      CREATE INDEX jobs_source_created ON jobs (source, created_at, id);

      -- 1: the file is someone else's, outside the data dir: never deleted, moved or rewritten by Atelier.
      ALTER TABLE images ADD COLUMN linked INTEGER NOT NULL DEFAULT 0 CHECK (linked IN (0, 1));
      CREATE INDEX images_sha256 ON images (sha256);
      -- Imported images get their thumbnail in the background: this finds the ones still waiting.
      CREATE INDEX images_thumbless ON images (id) WHERE thumb_path IS NULL;

      CREATE TABLE import_folders (
        id TEXT PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        is_file INTEGER NOT NULL DEFAULT 0 CHECK (is_file IN (0, 1)),
        mode TEXT NOT NULL CHECK (mode IN ('link', 'copy')),
        watch INTEGER NOT NULL DEFAULT 0 CHECK (watch IN (0, 1)),
        created_at INTEGER NOT NULL,
        last_scan_at INTEGER
      ) STRICT;

      CREATE TABLE imports (
        id TEXT PRIMARY KEY,
        status TEXT NOT NULL CHECK (status IN ('running', 'paused', 'completed', 'cancelled', 'failed')),
        mode TEXT NOT NULL CHECK (mode IN ('link', 'copy')),
        watch INTEGER NOT NULL CHECK (watch IN (0, 1)),
        paths_json TEXT NOT NULL CHECK (json_valid(paths_json)),
        scan_done INTEGER NOT NULL DEFAULT 0 CHECK (scan_done IN (0, 1)),
        found INTEGER NOT NULL DEFAULT 0,
        imported INTEGER NOT NULL DEFAULT 0,
        duplicates INTEGER NOT NULL DEFAULT 0,
        skipped INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        finished_at INTEGER,
        error_json TEXT CHECK (error_json IS NULL OR json_valid(error_json))
      ) STRICT;
      CREATE INDEX imports_created ON imports (created_at);

      CREATE TABLE import_files (
        import_id TEXT NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        path TEXT NOT NULL,
        folder_id TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'imported', 'duplicate', 'skipped', 'failed')),
        reason TEXT,
        PRIMARY KEY (import_id, seq)
      ) STRICT;
      CREATE UNIQUE INDEX import_files_path ON import_files (import_id, path);
      CREATE INDEX import_files_status ON import_files (import_id, status, seq);

      CREATE TABLE image_locations (
        path TEXT PRIMARY KEY,
        image_id TEXT NOT NULL REFERENCES images (id) ON DELETE CASCADE,
        folder_id TEXT REFERENCES import_folders (id) ON DELETE SET NULL,
        bytes INTEGER NOT NULL,
        mtime_ms INTEGER NOT NULL,
        seen_at INTEGER NOT NULL,
        missing_at INTEGER
      ) STRICT;
      CREATE INDEX image_locations_image ON image_locations (image_id);
      -- By folder in path order: the start-up check pages through a folder's files with no sort.
      CREATE INDEX image_locations_folder ON image_locations (folder_id, path);
    `);
  },
};
