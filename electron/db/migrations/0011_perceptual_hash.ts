import type { Migration } from './types.js';

/**
 * Version 11: a 64-bit perceptual hash per image (find similar, show duplicates). Stored as SQLite's signed 64-bit
 * INTEGER (the hash's bits as two's complement): 8 bytes a row against 17 for hex text, and SQL splits it into two
 * exact 32-bit halves (`phash >> 32`, `phash & 0xffffffff`), so the in-memory index loads it without a BigInt a
 * row. No index on the value itself: similarity is a popcount scan in memory, never a B-tree lookup. The partial
 * index finds the rows still waiting for their hash (an upgraded library fills in in the background).
 */
export const migration0011: Migration = {
  version: 11,
  name: 'perceptual_hash',
  up(db) {
    db.exec(`
      ALTER TABLE images ADD COLUMN phash INTEGER;
      CREATE INDEX images_phashless ON images (id) WHERE phash IS NULL;
    `);
  },
};
