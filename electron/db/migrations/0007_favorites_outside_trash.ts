import type { Migration } from './types.js';

const STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted'] as const;

function statusDeltas(add: 'new' | null, sub: 'old' | null): string {
  return STATUSES.map(
    (s) =>
      `${s} = ${s}${add === null ? '' : ` + (${add}.status = '${s}')`}${sub === null ? '' : ` - (${sub}.status = '${s}')`}`,
  ).join(',\n          ');
}

/** A favourite counts while it is outside the trash (the Favorites tab lists no trashed job). */
const fav = (row: 'new' | 'old') => `(${row}.favorite = 1 AND ${row}.trashed_at IS NULL)`;

/**
 * Version 7: store_totals.favorites counts favourites outside the trash, as the Favorites tab shows them (it counted
 * trashed ones too: "1" over "No favorites yet"). The job count triggers of version 3 are recreated with that rule.
 */
export const migration0007: Migration = {
  version: 7,
  name: 'favorites_outside_trash',
  up(db) {
    db.exec(`
      DROP TRIGGER jobs_counts_insert;
      DROP TRIGGER jobs_counts_delete;
      DROP TRIGGER jobs_counts_update;
      UPDATE store_totals SET favorites = (SELECT COUNT(*) FROM jobs WHERE favorite = 1 AND trashed_at IS NULL) WHERE id = 1;

      CREATE TRIGGER jobs_counts_insert AFTER INSERT ON jobs BEGIN
        UPDATE store_totals SET
          jobs = jobs + 1,
          ${statusDeltas('new', null)},
          trashed = trashed + (new.trashed_at IS NOT NULL),
          favorites = favorites + ${fav('new')}
        WHERE id = 1;
      END;
      CREATE TRIGGER jobs_counts_delete AFTER DELETE ON jobs BEGIN
        UPDATE store_totals SET
          jobs = jobs - 1,
          ${statusDeltas(null, 'old')},
          trashed = trashed - (old.trashed_at IS NOT NULL),
          favorites = favorites - ${fav('old')}
        WHERE id = 1;
      END;
      CREATE TRIGGER jobs_counts_update AFTER UPDATE OF status, trashed_at, favorite ON jobs
      WHEN old.status IS NOT new.status OR (old.trashed_at IS NULL) <> (new.trashed_at IS NULL) OR old.favorite <> new.favorite
      BEGIN
        UPDATE store_totals SET
          ${statusDeltas('new', 'old')},
          trashed = trashed + (new.trashed_at IS NOT NULL) - (old.trashed_at IS NOT NULL),
          favorites = favorites + ${fav('new')} - ${fav('old')}
        WHERE id = 1;
      END;
    `);
  },
};
