import type { Migration } from './types.js';

/**
 * Version 14: presets (saved composer settings, made in Atelier or imported from an A1111 styles.csv) and
 * the prompt history. A preset's `key` is its folded name, so names are unique whatever their case or accents.
 * History rows are unique by exact text; `seq` orders them by last use (the clock may repeat or go back).
 */
export const migration0014: Migration = {
  version: 14,
  name: 'presets',
  up(db) {
    db.exec(`
      CREATE TABLE presets (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        key TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL CHECK (source IN ('atelier', 'styles.csv')),
        provider TEXT,
        model TEXT,
        width INTEGER,
        height INTEGER,
        steps INTEGER,
        guidance REAL,
        sampler TEXT,
        scheduler TEXT,
        negative_prompt TEXT,
        template TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE prompt_history (
        id INTEGER PRIMARY KEY,
        text TEXT NOT NULL UNIQUE,
        folded TEXT NOT NULL,
        used_at INTEGER NOT NULL,
        uses INTEGER NOT NULL,
        seq INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX prompt_history_seq ON prompt_history (seq);
    `);
  },
};
