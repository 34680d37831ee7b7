import type { Migration } from './types.js';

/**
 * Version 23: images_seed becomes (seed, job_id), so a `seed:` range or prefix lists its jobs from the index alone
 * (query/compile.ts's seed driver) instead of reading each matching image's row for its job.
 */
export const migration0023: Migration = {
  version: 23,
  name: 'seed_job_index',
  up(db) {
    db.exec(`
      DROP INDEX images_seed;
      CREATE INDEX images_seed_job ON images (seed, job_id) WHERE seed IS NOT NULL;
    `);
  },
};
