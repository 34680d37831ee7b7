import type { Migration } from './types.js';

/**
 * Version 19: an Atelier job's size columns (what size:, w:, h: and ratio: search, jobs_size_created) become the size
 * of the file it made, as jobs.ts now writes them when a job succeeds. Older versions kept the request's size, which an
 * upscale (factor × the source) or a provider that picks its own size does not return. The images rows need no fix:
 * electron/media/store-image.ts has recorded each file's decoded size since it was written, so the truth is in the
 * database and no file is read. Imported jobs keep the size their file's settings (or a person's correction) name
 * (electron/db/annotated-search.ts). One pass over images joined to jobs by primary key: no file, no per-row JS.
 */
export const migration0019: Migration = {
  version: 19,
  name: 'job_size_from_images',
  up(db) {
    db.exec(`
      UPDATE jobs SET width = i.width, height = i.height
        FROM images AS i
       WHERE i.job_id = jobs.id AND i.idx = 0 AND jobs.source = 'atelier'
         AND (jobs.width <> i.width OR jobs.height <> i.height);
    `);
  },
};
