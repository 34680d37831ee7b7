import { JOB_STATUSES, type JobStatus } from '../../shared/contract.js';
import type { StoreContext } from './context.js';
import type { StoreStats } from './types.js';

export function createStats(ctx: StoreContext) {
  // Each count is answered from an index (status, partial favorites/trash), never the table itself.
  const byStatus = ctx.sql.prepare<{ status: JobStatus; n: number }>(
    'stats.byStatus',
    'SELECT status, COUNT(*) AS n FROM jobs GROUP BY status',
  );
  const flags = ctx.sql.prepare<{ trashed: number; favorites: number }>(
    'stats.flags',
    `SELECT (SELECT COUNT(*) FROM jobs WHERE trashed_at IS NOT NULL) AS trashed,
       (SELECT COUNT(*) FROM jobs WHERE favorite = 1) AS favorites`,
  );
  const imageTotals = ctx.sql.prepare<{ n: number; bytes: number }>(
    'stats.images',
    'SELECT COUNT(*) AS n, COALESCE(SUM(bytes), 0) AS bytes FROM images',
  );
  const pages = ctx.sql.prepare<{ bytes: number }>(
    'stats.databaseBytes',
    'SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()',
  );

  return {
    stats(): StoreStats {
      return ctx.sql.time('stats', () => {
        const counts = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<JobStatus, number>;
        let total = 0;
        for (const row of byStatus.all()) {
          counts[row.status] = row.n;
          total += row.n;
        }
        const flagRow = flags.get()!;
        const imageRow = imageTotals.get()!;
        return {
          byStatus: counts,
          total,
          trashed: flagRow.trashed,
          favorites: flagRow.favorites,
          images: imageRow.n,
          databaseBytes: pages.get()!.bytes,
          imageBytes: imageRow.bytes,
        };
      });
    },
  };
}
