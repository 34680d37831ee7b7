import type { Migration } from './types.js';

/** store_totals columns this migration adds, each kept equal to a COUNT/SUM over jobs or images by triggers. */
export const COUNT_COLUMNS = [
  'jobs',
  'queued',
  'running',
  'succeeded',
  'failed',
  'cancelled',
  'interrupted',
  'trashed',
  'favorites',
  'images',
  'image_bytes',
] as const;

const STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted'] as const;

/** `col = col + (new.status = 'x') - (old.status = 'x')` for each status; a side is left out with null. */
function statusDeltas(add: 'new' | null, sub: 'old' | null): string {
  return STATUSES.map(
    (s) =>
      `${s} = ${s}${add === null ? '' : ` + (${add}.status = '${s}')`}${sub === null ? '' : ` - (${sub}.status = '${s}')`}`,
  ).join(',\n          ');
}

/**
 * Version 3: job counts per status, trashed and favorite jobs, and image count and bytes, kept in store_totals by
 * triggers (like the byte total of version 2), so the pending-capacity check on submit and stats() read one row
 * instead of counting 100k+ rows.
 */
export const migration0003: Migration = {
  version: 3,
  name: 'totals_counts',
  up(db) {
    db.exec(`
      ${COUNT_COLUMNS.map((c) => `ALTER TABLE store_totals ADD COLUMN ${c} INTEGER NOT NULL DEFAULT 0;`).join('\n      ')}

      UPDATE store_totals SET
        jobs = (SELECT COUNT(*) FROM jobs),
        ${STATUSES.map((s) => `${s} = (SELECT COUNT(*) FROM jobs WHERE status = '${s}')`).join(',\n        ')},
        trashed = (SELECT COUNT(*) FROM jobs WHERE trashed_at IS NOT NULL),
        favorites = (SELECT COUNT(*) FROM jobs WHERE favorite = 1),
        images = (SELECT COUNT(*) FROM images),
        image_bytes = (SELECT COALESCE(SUM(bytes), 0) FROM images)
      WHERE id = 1;

      CREATE TRIGGER jobs_counts_insert AFTER INSERT ON jobs BEGIN
        UPDATE store_totals SET
          jobs = jobs + 1,
          ${statusDeltas('new', null)},
          trashed = trashed + (new.trashed_at IS NOT NULL),
          favorites = favorites + new.favorite
        WHERE id = 1;
      END;
      CREATE TRIGGER jobs_counts_delete AFTER DELETE ON jobs BEGIN
        UPDATE store_totals SET
          jobs = jobs - 1,
          ${statusDeltas(null, 'old')},
          trashed = trashed - (old.trashed_at IS NOT NULL),
          favorites = favorites - old.favorite
        WHERE id = 1;
      END;
      -- WHEN skips progress ticks and other updates that leave every counted property as it was.
      CREATE TRIGGER jobs_counts_update AFTER UPDATE OF status, trashed_at, favorite ON jobs
      WHEN old.status IS NOT new.status OR (old.trashed_at IS NULL) <> (new.trashed_at IS NULL) OR old.favorite <> new.favorite
      BEGIN
        UPDATE store_totals SET
          ${statusDeltas('new', 'old')},
          trashed = trashed + (new.trashed_at IS NOT NULL) - (old.trashed_at IS NOT NULL),
          favorites = favorites + new.favorite - old.favorite
        WHERE id = 1;
      END;

      CREATE TRIGGER images_counts_insert AFTER INSERT ON images BEGIN
        UPDATE store_totals SET images = images + 1, image_bytes = image_bytes + new.bytes WHERE id = 1;
      END;
      -- Also fires for the rows ON DELETE CASCADE removes with their job.
      CREATE TRIGGER images_counts_delete AFTER DELETE ON images BEGIN
        UPDATE store_totals SET images = images - 1, image_bytes = image_bytes - old.bytes WHERE id = 1;
      END;
      CREATE TRIGGER images_counts_update AFTER UPDATE OF bytes ON images BEGIN
        UPDATE store_totals SET image_bytes = image_bytes - old.bytes + new.bytes WHERE id = 1;
      END;
    `);
  },
};
