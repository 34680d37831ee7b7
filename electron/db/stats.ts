import { JOB_STATUSES, type JobStatus } from '../../shared/contract.js';
import type { StoreContext } from './context.js';
import type { StoreStats } from './records.js';

type TotalsRow = Record<JobStatus, number> & {
  trashed: number;
  favorites: number;
  images: number;
  image_bytes: number;
};

export function createStats(ctx: StoreContext) {
  // Counts come from the one store_totals row that triggers keep current (migration 0003): O(1) at any size.
  const totals = ctx.sql.prepare<TotalsRow>(
    'stats.totals',
    `SELECT ${JOB_STATUSES.join(', ')}, trashed, favorites, images, image_bytes FROM store_totals WHERE id = 1`,
  );
  const pages = ctx.sql.prepare<{ bytes: number }>(
    'stats.databaseBytes',
    'SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()',
  );

  return {
    reads: {
      stats(): StoreStats {
        return ctx.sql.time('stats', () => {
          const row = totals.get()!;
          const counts = Object.fromEntries(JOB_STATUSES.map((s) => [s, row[s]])) as Record<JobStatus, number>;
          return {
            byStatus: counts,
            total: JOB_STATUSES.reduce((sum, s) => sum + row[s], 0),
            trashed: row.trashed,
            favorites: row.favorites,
            images: row.images,
            databaseBytes: pages.get()!.bytes,
            imageBytes: row.image_bytes,
          };
        });
      },
    },
    writes: {},
  };
}
