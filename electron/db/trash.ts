import { TERMINAL_STATUSES } from '../../shared/contract.js';
import type { StoreContext } from './context.js';
import type { PruneLimits, RemovedFiles, RetentionMove, TrashSummary } from './records.js';

const TERMINAL_SQL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(', ');
/** Ids travel as one JSON array so each statement is prepared once whatever the selection size. */
const IDS = 'SELECT value FROM json_each(?)';
const IDS_NAMED = 'SELECT value FROM json_each(@ids)';

/** Favorites, trash, restore, purge, retention: what the person does to their history. */
export function createTrash(ctx: StoreContext) {
  const { sql } = ctx;
  const setFavoriteStmt = sql.prepare(
    'jobs.setFavorite',
    `UPDATE jobs SET favorite = @value, updated_at = @now WHERE id IN (${IDS_NAMED}) AND favorite <> @value`,
  );
  // A job's favourite is its images' (migration 0010): starring the job stars each of them.
  const setImagesFavorite = sql.prepare(
    'images.setFavoriteOfJobs',
    `UPDATE images SET favorite = @value WHERE job_id IN (${IDS_NAMED}) AND favorite <> @value`,
  );
  const restoreImagesOfJobs = sql.prepare(
    'images.restoreOfJobs',
    `UPDATE images SET trashed_at = NULL WHERE job_id IN (${IDS_NAMED}) AND trashed_at IS NOT NULL`,
  );
  // Images trashed one by one from jobs that stay: Empty trash removes them too.
  const trashedImageIds = sql.prepare<{ id: string }>(
    'images.trashedOfActiveJobs',
    `SELECT i.id FROM jobs AS j INDEXED BY jobs_in_trash_created JOIN images AS i ON i.job_id = j.id
     WHERE (j.trashed_at IS NOT NULL OR j.trashed_images > 0) AND j.trashed_at IS NULL AND i.trashed_at IS NOT NULL
       AND i.trashed_at <= ? AND (? = 0 OR i.favorite = 0)`,
  );
  const filesOfImages = sql.prepare<{ path: string; thumb_path: string | null; bytes: number; linked: number }>(
    'images.filesOfImages',
    `SELECT path, thumb_path, bytes, linked FROM images WHERE id IN (${IDS})`,
  );
  const deleteImages = sql.prepare<{ job_id: string }>(
    'images.delete',
    `DELETE FROM images WHERE id IN (${IDS}) RETURNING job_id`,
  );
  const trashStmt = sql.prepare(
    'jobs.trash',
    `UPDATE jobs SET trashed_at = @now, updated_at = @now
     WHERE id IN (${IDS_NAMED}) AND trashed_at IS NULL AND status IN (${TERMINAL_SQL})`,
  );
  const restoreStmt = sql.prepare(
    'jobs.restore',
    `UPDATE jobs SET trashed_at = NULL, updated_at = @now WHERE id IN (${IDS_NAMED}) AND trashed_at IS NOT NULL`,
  );
  const filesOf = sql.prepare<{ path: string; thumb_path: string | null; bytes: number; linked: number }>(
    'images.filesOfJobs',
    `SELECT path, thumb_path, bytes, linked FROM images WHERE job_id IN (${IDS})`,
  );
  const deleteJobs = sql.prepare<{ id: string }>('jobs.delete', `DELETE FROM jobs WHERE id IN (${IDS}) RETURNING id`);
  const stillReferenced = sql.prepare<{ one: number }>(
    'images.stillReferenced',
    'SELECT 1 AS one FROM images WHERE path = @path OR thumb_path = @path LIMIT 1',
  );
  const trashedIds = sql.prepare<{ id: string }>(
    'jobs.trashedIds',
    'SELECT id FROM jobs WHERE trashed_at IS NOT NULL AND trashed_at <= ?',
  );
  const trashedNonFavoriteIds = sql.prepare<{ id: string }>(
    'jobs.trashedNonFavoriteIds',
    'SELECT id FROM jobs WHERE trashed_at IS NOT NULL AND trashed_at <= ? AND favorite = 0',
  );
  // Retention looks only at jobs outside the trash: what is already there is the trash's own auto-empty's business.
  const expiredIds = sql.prepare<{ id: string }>(
    'jobs.expiredIds',
    `SELECT id FROM jobs WHERE status IN (${TERMINAL_SQL}) AND favorite = 0 AND trashed_at IS NULL AND source = 'atelier'
       AND COALESCE(completed_at, created_at) <= ?`,
  );
  const totals = sql.prepare<{ jobs: number; bytes: number }>(
    'jobs.footprint',
    'SELECT jobs - trashed AS jobs, logical_bytes + image_bytes AS bytes FROM store_totals WHERE id = 1',
  );
  const trashedFootprint = sql.prepare<{ bytes: number }>(
    'jobs.trashedFootprint',
    `SELECT COALESCE(SUM(j.logical_bytes + COALESCE((SELECT SUM(i.bytes) FROM images AS i WHERE i.job_id = j.id), 0)), 0) AS bytes
     FROM jobs AS j WHERE j.trashed_at IS NOT NULL`,
  );
  const prunableOldestFirst = sql.prepare<{ id: string; bytes: number }>(
    'jobs.prunable',
    `SELECT j.id, j.logical_bytes + COALESCE((SELECT SUM(i.bytes) FROM images AS i WHERE i.job_id = j.id), 0) AS bytes
     FROM jobs AS j WHERE j.status IN (${TERMINAL_SQL}) AND j.favorite = 0 AND j.trashed_at IS NULL AND j.source = 'atelier'
     ORDER BY j.created_at, j.id`,
  );
  // Retention keeps Atelier's own history in bounds: imported images are the person's files, neither counted nor moved.
  const importedFootprint = sql.prepare<{ jobs: number; bytes: number }>(
    'jobs.importedFootprint',
    `SELECT COUNT(*) AS jobs, COALESCE(SUM(j.logical_bytes + COALESCE((SELECT SUM(i.bytes) FROM images AS i WHERE i.job_id = j.id), 0)), 0) AS bytes
     FROM jobs AS j WHERE j.source <> 'atelier' AND j.trashed_at IS NULL`,
  );
  const retainStmt = sql.prepare(
    'jobs.retain',
    `UPDATE jobs SET trashed_at = @now, updated_at = @now
     WHERE id IN (${IDS_NAMED}) AND trashed_at IS NULL AND favorite = 0 AND status IN (${TERMINAL_SQL})`,
  );
  const imagesOf = sql.prepare<{ images: number; bytes: number }>(
    'images.sizeOfJobs',
    `SELECT COUNT(*) AS images, COALESCE(SUM(bytes), 0) AS bytes FROM images WHERE job_id IN (${IDS})`,
  );
  const trashJobs = sql.prepare<{ jobs: number; favorites: number }>(
    'jobs.trashSummary',
    'SELECT COUNT(*) AS jobs, COALESCE(SUM(favorite), 0) AS favorites FROM jobs WHERE trashed_at IS NOT NULL',
  );
  const trashImages = sql.prepare<{ images: number; loose: number; bytes: number }>(
    'images.trashSummary',
    `SELECT COUNT(*) AS images, COALESCE(SUM(j.trashed_at IS NULL), 0) AS loose, COALESCE(SUM(i.bytes), 0) AS bytes
     FROM jobs AS j INDEXED BY jobs_in_trash_created JOIN images AS i ON i.job_id = j.id
     WHERE (j.trashed_at IS NOT NULL OR j.trashed_images > 0) AND (j.trashed_at IS NOT NULL OR i.trashed_at IS NOT NULL)`,
  );

  // Delete permanently from the trash view: only images the trash holds, never one a person still sees.
  const inTrash = sql.prepare<{ id: string }>(
    'images.inTrash',
    `SELECT i.id FROM images AS i JOIN jobs AS j ON j.id = i.job_id
     WHERE i.id IN (${IDS}) AND (i.trashed_at IS NOT NULL OR j.trashed_at IS NOT NULL)`,
  );
  const trashedOnly = sql.prepare<{ id: string }>(
    'jobs.trashedOnly',
    `SELECT id FROM jobs WHERE id IN (${IDS}) AND trashed_at IS NOT NULL`,
  );

  function sizeOf(ids: string[]): RetentionMove {
    const { images, bytes } = imagesOf.get(JSON.stringify(ids))!;
    return { ids, jobs: ids.length, images, bytes };
  }

  function touch(stmt: typeof setFavoriteStmt, ids: string[], params: Record<string, unknown>): number {
    if (ids.length === 0) return 0;
    return stmt.run({ ids: JSON.stringify([...new Set(ids)]), now: ctx.now(), ...params }).changes;
  }

  /** Deletes rows (images and events cascade) and returns the files no remaining image references. */
  const removeTx = ctx.db.transaction((ids: string[], imageIds: string[] = []): RemovedFiles => {
    const idsJson = JSON.stringify([...new Set(ids)]);
    const imageIdsJson = JSON.stringify([...new Set(imageIds)]);
    const candidates = new Map<string, number>();
    for (const row of [...filesOf.all(idsJson), ...(imageIds.length === 0 ? [] : filesOfImages.all(imageIdsJson))]) {
      // A linked original is the person's own file, outside the data dir: its row goes, the file is never offered.
      if (row.linked === 0) candidates.set(row.path, Math.max(candidates.get(row.path) ?? 0, row.bytes));
      if (row.thumb_path !== null && !candidates.has(row.thumb_path)) candidates.set(row.thumb_path, 0);
    }
    const removedIds = deleteJobs.all(idsJson).map((r) => r.id);
    const changed = imageIds.length === 0 ? [] : [...new Set(deleteImages.all(imageIdsJson).map((r) => r.job_id))];
    const files: string[] = [];
    let bytesFreed = 0;
    // Content-addressed files may be shared by other images: only unreferenced ones go back to the caller.
    for (const [path, bytes] of candidates) {
      if (stillReferenced.get({ path }) !== undefined) continue;
      files.push(path);
      bytesFreed += bytes;
    }
    return { removed: removedIds.length, ids: removedIds, bytesFreed, files, ...(changed.length > 0 && { changed }) };
  });

  function remove(ids: string[], imageIds: string[] = []): RemovedFiles {
    if (ids.length === 0 && imageIds.length === 0) return { removed: 0, ids: [], bytesFreed: 0, files: [] };
    return sql.time('jobs.remove', () => removeTx.immediate(ids, imageIds));
  }
  const trashedImages = (olderThan: number, keepFavorites: boolean) =>
    trashedImageIds.all(olderThan, keepFavorites ? 1 : 0).map((r) => r.id);

  function pruneIds(limits: PruneLimits): string[] {
    const chosen = new Set<string>();
    if (limits.maxAgeMs !== undefined && limits.maxAgeMs !== null) {
      for (const row of expiredIds.all(ctx.now() - limits.maxAgeMs)) chosen.add(row.id);
    }
    const wantJobs = limits.maxJobs ?? null;
    const wantBytes = limits.maxBytes ?? null;
    if (wantJobs === null && wantBytes === null) return [...chosen];
    const current = totals.get()!;
    const imported = importedFootprint.get()!;
    let jobs = current.jobs - imported.jobs;
    let bytes = current.bytes - trashedFootprint.get()!.bytes - imported.bytes;
    const over = () => (wantJobs !== null && jobs > wantJobs) || (wantBytes !== null && bytes > wantBytes);
    const prunable = prunableOldestFirst.all();
    // The age pass already counts toward the budgets.
    for (const row of prunable) {
      if (chosen.has(row.id)) {
        jobs -= 1;
        bytes -= row.bytes;
      }
    }
    for (const row of prunable) {
      if (!over()) break;
      if (chosen.has(row.id)) continue;
      chosen.add(row.id);
      jobs -= 1;
      bytes -= row.bytes;
    }
    return [...chosen];
  }

  const pruneTx = ctx.db.transaction((limits: PruneLimits): RetentionMove => {
    const move = sizeOf(pruneIds(limits));
    if (move.ids.length > 0) retainStmt.run({ ids: JSON.stringify(move.ids), now: ctx.now() });
    return move;
  });

  return {
    reads: {
      /** What `prune` would move to the trash now under these limits (nothing is changed). */
      previewPrune(limits: PruneLimits): RetentionMove {
        return sizeOf(sql.time('jobs.prune.select', () => pruneIds(limits)));
      },
      /** What Empty trash removes: jobs, every trashed image (those of jobs that stay among them) and bytes, favorites. */
      trashSummary(): TrashSummary {
        const { jobs, favorites } = trashJobs.get()!;
        const { images, loose, bytes } = trashImages.get()!;
        return { jobs, images, looseImages: loose, bytes, favorites };
      },
    },
    writes: {
      setFavorite(ids: string[], favorite: boolean): number {
        const changed = touch(setFavoriteStmt, ids, { value: favorite ? 1 : 0 });
        touch(setImagesFavorite, ids, { value: favorite ? 1 : 0 });
        return changed;
      },
      trash(ids: string[]): number {
        return touch(trashStmt, ids, {});
      },
      restore(ids: string[]): number {
        const restored = touch(restoreStmt, ids, {});
        touch(restoreImagesOfJobs, ids, {});
        return restored;
      },
      purge: (ids: string[]) => remove(ids),
      /** Delete permanently from the trash: jobs trashed whole and single trashed images; anything outside it stays. */
      purgeTrashed(ids: string[], imageIds: string[]): RemovedFiles {
        const jobs = ids.length === 0 ? [] : trashedOnly.all(JSON.stringify(ids)).map((r) => r.id);
        const images = imageIds.length === 0 ? [] : inTrash.all(JSON.stringify(imageIds)).map((r) => r.id);
        return remove(jobs, images);
      },
      emptyTrash(): RemovedFiles {
        return remove(
          trashedIds.all(Number.MAX_SAFE_INTEGER).map((r) => r.id),
          trashedImages(Number.MAX_SAFE_INTEGER, false),
        );
      },
      emptyTrashOlderThan(olderThanMs: number): RemovedFiles {
        const before = ctx.now() - olderThanMs;
        return remove(
          trashedNonFavoriteIds.all(before).map((r) => r.id),
          trashedImages(before, true),
        );
      },
      /** Retention never deletes: it moves the oldest non-favorite jobs to the trash, whose auto-empty then applies. */
      prune(limits: PruneLimits): RetentionMove {
        return sql.time('jobs.prune', () => pruneTx.immediate(limits));
      },
    },
  };
}
