import type { Migration } from './types.js';

/**
 * Version 5: each image keeps the seed it was rendered with (a batch's images differ), and, where a batch is drawn
 * from one shared seed (ComfyUI), its position in that batch. Old rows are backfilled only where the seed follows
 * from the job's: the built-in generator and A1111 render image i with seed + i (Atelier never sends A1111 a
 * variation seed). Every other provider's old images keep a null seed rather than a guess.
 */
export const migration0005: Migration = {
  version: 5,
  name: 'image_seed',
  up(db) {
    db.exec(`
      ALTER TABLE images ADD COLUMN seed INTEGER;
      ALTER TABLE images ADD COLUMN batch_index INTEGER CHECK (batch_index IS NULL OR batch_index >= 0);
      UPDATE images SET seed = (
        SELECT json_extract(j.result_json, '$.seed') + images.idx FROM jobs AS j
        WHERE j.id = images.job_id AND j.provider IN ('builtin', 'a1111') AND json_type(j.result_json, '$.seed') = 'integer'
      );
    `);
  },
};
