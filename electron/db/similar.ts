/** Perceptual hashes (migration 11): reading them for the in-memory index, writing them, and resolving matches. */
import type { JobSummary } from '../../shared/contract.js';
import { toSummary } from './codec.js';
import { SUMMARY_COLUMNS, summaryRowFrom, type StoreContext } from './context.js';
import type { Images } from './images.js';
import { hashToColumn } from './phash-column.js';

export { hashFromHalves, hashToColumn } from './phash-column.js';

/** One image as the index and its answers need it. */
export interface HashedImage {
  rowid: number;
  imageId: string;
  jobId: string;
  sha256: string;
  /** Null while its hash is still to be made. */
  hi: number | null;
  lo: number | null;
  /** Its job is in the trash. */
  trashed: boolean;
}

interface HashedRow {
  rowid: number;
  id: string;
  job_id: string;
  sha256: string;
  hi: number | null;
  lo: number | null;
  trashed: number;
}

const toHashed = (row: HashedRow): HashedImage => ({
  rowid: row.rowid,
  imageId: row.id,
  jobId: row.job_id,
  sha256: row.sha256,
  hi: row.hi,
  lo: row.lo,
  trashed: row.trashed === 1,
});

// The halves in SQL: each fits a JS number exactly, so no BigInt is made per row.
const HALVES = '(i.phash >> 32) & 4294967295 AS hi, i.phash & 4294967295 AS lo';

export function createSimilar(ctx: StoreContext, images: Images) {
  const { sql } = ctx;
  const page = sql.cached<[number, number, number]>(
    'similar.hashPage',
    'similar.hashPage',
    () =>
      `SELECT i.rowid, ${HALVES} FROM images AS i WHERE i.rowid > ? AND i.phash IS NOT NULL ORDER BY i.rowid LIMIT ?`,
    { raw: true },
  );
  const maxRowid = sql.prepare<{ n: number | null }>('similar.maxRowid', 'SELECT MAX(rowid) AS n FROM images');
  const setHash = sql.prepare<{ rowid: number }>(
    'similar.setHash',
    'UPDATE images SET phash = ? WHERE id = ? RETURNING rowid',
  );
  // Only images with a thumbnail: the hash is made from it (an image waiting for one gets both from the thumbnailer).
  const hashless = sql.prepare<{ id: string; thumb_path: string }>(
    'similar.hashless',
    'SELECT id, thumb_path FROM images WHERE phash IS NULL AND thumb_path IS NOT NULL AND id < ? ORDER BY id DESC LIMIT ?',
  );
  const byId = sql.prepare<HashedRow>(
    'similar.byId',
    `SELECT i.rowid, i.id, i.job_id, i.sha256, ${HALVES}, (j.trashed_at IS NOT NULL OR i.trashed_at IS NOT NULL) AS trashed
     FROM images AS i JOIN jobs AS j ON j.id = i.job_id WHERE i.id = ?`,
  );
  // One statement for any number of rows: the rowids arrive as a JSON array.
  const byRowids = sql.prepare<HashedRow>(
    'similar.byRowids',
    `SELECT i.rowid, i.id, i.job_id, i.sha256, ${HALVES}, (j.trashed_at IS NOT NULL OR i.trashed_at IS NOT NULL) AS trashed
     FROM json_each(?) AS r JOIN images AS i ON i.rowid = r.value JOIN jobs AS j ON j.id = i.job_id`,
  );
  const summaries = sql.cached<unknown[]>(
    'similar.summaries',
    'similar.summaries',
    () => `SELECT ${SUMMARY_COLUMNS} FROM json_each(?) AS r JOIN jobs AS j ON j.id = r.value`,
    { raw: true },
  );

  return {
    reads: {
      /** [rowid, hi, lo] of hashed images after `afterRowid`, in rowid order: the index loads in slices. */
      hashPage: (afterRowid: number, limit: number): Array<[number, number, number]> => page.all(afterRowid, limit),
      maxRowid: (): number => maxRowid.get()?.n ?? 0,
      /** Images with a thumbnail still without a hash, newest first after `beforeId` (null: from the newest). */
      hashless: (beforeId: string | null, limit: number): Array<{ imageId: string; thumbPath: string }> =>
        hashless.all(beforeId ?? '\uffff', limit).map((r) => ({ imageId: r.id, thumbPath: r.thumb_path })),
      image: (imageId: string): HashedImage | null => {
        const row = byId.get(imageId);
        return row === undefined ? null : toHashed(row);
      },
      /** The images behind index entries, those still present (an entry may outlive a purged image). */
      resolve: (rowids: readonly number[]): HashedImage[] =>
        rowids.length === 0 ? [] : byRowids.all(JSON.stringify(rowids)).map(toHashed),
      /** The summaries of jobs, in the order given (a job missing meanwhile is left out). */
      jobSummaries: (jobIds: readonly string[]): JobSummary[] => {
        if (jobIds.length === 0) return [];
        const rows = new Map(
          summaries.all(JSON.stringify(jobIds)).map((values) => {
            const row = summaryRowFrom(values);
            return [row.id, row] as const;
          }),
        );
        const imagesByJob = images.summariesFor([...rows.keys()]);
        return jobIds.flatMap((id) => {
          const row = rows.get(id);
          return row === undefined ? [] : [toSummary(row, imagesByJob.get(id) ?? [])];
        });
      },
    },
    writes: {
      /** Records an image's hash; its rowid, or null when the image is gone. */
      setHash: (imageId: string, hash: string): number | null =>
        setHash.get(hashToColumn(hash), imageId)?.rowid ?? null,
    },
  };
}

export type SimilarReads = ReturnType<typeof createSimilar>['reads'];
export type SimilarWrites = ReturnType<typeof createSimilar>['writes'];
export type SimilarStore = SimilarReads & SimilarWrites;
