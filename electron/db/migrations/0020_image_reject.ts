import type { Migration } from './types.js';

/**
 * Version 20: a reject flag per image, as Lightroom's pick/reject. A rejected image leaves the default view (it stays
 * in the library, found with is:rejected). Two roll-ups on jobs, kept by triggers like migration 0010's:
 * - jobs.rejected_images: how many of its images are rejected (in the trash or not), for the partial index that reads
 *   only the jobs holding one (is:rejected's driver, and the counts' small correction);
 * - jobs.rejected: every image outside the trash is rejected (at least one), so the default view drops the job with a
 *   literal `j.rejected = 0` and no per-row subquery.
 */
export const migration0020: Migration = {
  version: 20,
  name: 'image_reject',
  up(db) {
    db.exec(`
      ALTER TABLE images ADD COLUMN rejected INTEGER NOT NULL DEFAULT 0 CHECK (rejected IN (0, 1));
      ALTER TABLE jobs ADD COLUMN rejected_images INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE jobs ADD COLUMN rejected INTEGER NOT NULL DEFAULT 0 CHECK (rejected IN (0, 1));
      CREATE INDEX jobs_rejected_created ON jobs (created_at, id) WHERE rejected_images > 0;

      -- Trashing or restoring a sibling can make a job wholly rejected (or not): only jobs holding a reject care.
      CREATE TRIGGER images_reject_update AFTER UPDATE OF rejected, trashed_at ON images
      WHEN old.rejected <> new.rejected OR new.rejected = 1
        OR EXISTS (SELECT 1 FROM jobs WHERE id = new.job_id AND rejected_images > 0)
      BEGIN
        UPDATE jobs SET ${rollUp('new')} WHERE id = new.job_id;
      END;
      CREATE TRIGGER images_reject_delete AFTER DELETE ON images
      WHEN EXISTS (SELECT 1 FROM jobs WHERE id = old.job_id AND rejected_images > 0)
      BEGIN
        UPDATE jobs SET ${rollUp('old')} WHERE id = old.job_id;
      END;
      -- A new image in a wholly rejected job (one still running) brings the job back into view.
      CREATE TRIGGER images_reject_insert AFTER INSERT ON images
      WHEN EXISTS (SELECT 1 FROM jobs WHERE id = new.job_id AND rejected = 1)
      BEGIN
        UPDATE jobs SET ${rollUp('new')} WHERE id = new.job_id;
      END;
    `);
  },
};

function rollUp(row: 'new' | 'old'): string {
  const of = `FROM images WHERE job_id = ${row}.job_id`;
  return `rejected_images = (SELECT count(*) ${of} AND rejected = 1),
          rejected = EXISTS (SELECT 1 ${of} AND rejected = 1 AND trashed_at IS NULL)
            AND NOT EXISTS (SELECT 1 ${of} AND rejected = 0 AND trashed_at IS NULL)`;
}
