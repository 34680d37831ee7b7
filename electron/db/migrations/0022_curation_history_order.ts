import type { Migration } from './types.js';

/**
 * Version 22: a tag's and a board's images carry their job's history key (jobs.created_at, jobs.id), indexed after the
 * tag (board), so `tag:` and `board:` read their jobs newest first and stop at the page (query/list-plan.ts) instead of
 * walking the whole history checking each job. Triggers keep the copy true whatever writes the rows: an insert takes
 * its image's job's key, and a job whose created_at changes passes it on.
 */
export const migration0022: Migration = {
  version: 22,
  name: 'curation_history_order',
  up(db) {
    db.exec(`
      ALTER TABLE image_tags ADD COLUMN job_created_at INTEGER;
      ALTER TABLE image_tags ADD COLUMN job_id TEXT;
      ALTER TABLE board_images ADD COLUMN job_created_at INTEGER;
      ALTER TABLE board_images ADD COLUMN job_id TEXT;

      UPDATE image_tags SET (job_created_at, job_id) =
        (SELECT j.created_at, j.id FROM images AS i JOIN jobs AS j ON j.id = i.job_id WHERE i.id = image_tags.image_id);
      UPDATE board_images SET (job_created_at, job_id) =
        (SELECT j.created_at, j.id FROM images AS i JOIN jobs AS j ON j.id = i.job_id WHERE i.id = board_images.image_id);

      CREATE INDEX image_tags_tag_created ON image_tags (tag_id, job_created_at, job_id);
      CREATE INDEX board_images_board_created ON board_images (board_id, job_created_at, job_id);

      CREATE TRIGGER image_tags_job_key AFTER INSERT ON image_tags BEGIN
        UPDATE image_tags SET (job_created_at, job_id) =
          (SELECT j.created_at, j.id FROM images AS i JOIN jobs AS j ON j.id = i.job_id WHERE i.id = new.image_id)
        WHERE tag_id = new.tag_id AND image_id = new.image_id;
      END;
      CREATE TRIGGER board_images_job_key AFTER INSERT ON board_images BEGIN
        UPDATE board_images SET (job_created_at, job_id) =
          (SELECT j.created_at, j.id FROM images AS i JOIN jobs AS j ON j.id = i.job_id WHERE i.id = new.image_id)
        WHERE board_id = new.board_id AND image_id = new.image_id;
      END;
      CREATE TRIGGER jobs_created_curation_key AFTER UPDATE OF created_at ON jobs BEGIN
        UPDATE image_tags SET job_created_at = new.created_at
          WHERE image_id IN (SELECT id FROM images WHERE job_id = new.id);
        UPDATE board_images SET job_created_at = new.created_at
          WHERE image_id IN (SELECT id FROM images WHERE job_id = new.id);
      END;
    `);
  },
};
