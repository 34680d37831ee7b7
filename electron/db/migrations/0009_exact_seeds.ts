import type { Migration } from './types.js';

/**
 * Version 9: a seed beyond 2^53 (ComfyUI and Fooocus seeds are 64-bit) kept exactly. SQLite's INTEGER is signed
 * 64-bit and a JS number is exact only to 2^53, so such a seed is stored as its decimal digits in `seed_digits`
 * (with `seed` null); every smaller seed stays in `seed` as before. No existing row changes.
 */
export const migration0009: Migration = {
  version: 9,
  name: 'exact_seeds',
  up(db) {
    db.exec(`
      ALTER TABLE images ADD COLUMN seed_digits TEXT CHECK (
        seed_digits IS NULL OR (seed IS NULL AND seed_digits GLOB '[1-9]*' AND NOT seed_digits GLOB '*[^0-9]*' AND length(seed_digits) <= 20)
      );
    `);
  },
};
