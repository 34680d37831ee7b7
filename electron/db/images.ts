import type { ImageSummary } from '../../shared/contract.js';
import { normalizeSeed, type Seed } from '../../shared/seed.js';
import type { StoreContext } from './context.js';
import { hashToColumn } from './phash-column.js';
import type { NewImage, StoredImage } from './records.js';

interface ImageRow {
  id: string;
  job_id: string;
  idx: number;
  path: string;
  sha256: string;
  bytes: number;
  width: number;
  height: number;
  mime: string;
  thumb_path: string | null;
  seed: number | null;
  /** A seed beyond 2^53, as its digits (migration 9): an INTEGER column would round it. */
  seed_digits: string | null;
  batch_index: number | null;
  linked: number;
  rating: number;
  favorite: number;
  trashed_at: number | null;
  /** Migration 20: the person's reject (hidden from the default view). */
  rejected: number;
}

export interface ImagePathRow {
  id: string;
  path: string;
  thumbPath: string | null;
  /** The path is someone else's file outside the data dir (an imported original). */
  linked: boolean;
}

function toStored(row: ImageRow): StoredImage {
  return {
    id: row.id,
    jobId: row.job_id,
    index: row.idx,
    path: row.path,
    sha256: row.sha256,
    bytes: row.bytes,
    width: row.width,
    height: row.height,
    mime: row.mime,
    thumbPath: row.thumb_path,
    linked: row.linked === 1,
    ...perImage(row),
  };
}

/** The values that differ between a batch's images, present only where known. */
type PerImage = Pick<
  ImageSummary,
  'seed' | 'batchIndex' | 'thumbPending' | 'rating' | 'favorite' | 'trashed' | 'rejected'
>;

function perImage(row: ImageRow): PerImage {
  const out: PerImage = {};
  if (row.seed !== null) out.seed = row.seed;
  else if (row.seed_digits !== null) out.seed = row.seed_digits;
  if (row.batch_index !== null) out.batchIndex = row.batch_index;
  if (row.thumb_path === null) out.thumbPending = true;
  if (row.rating > 0) out.rating = row.rating;
  if (row.favorite === 1) out.favorite = true;
  if (row.trashed_at !== null) out.trashed = true;
  if (row.rejected === 1) out.rejected = true;
  return out;
}

/** [seed, seed_digits]: a safe integer in the INTEGER column, a seed beyond 2^53 as its digits. */
export function seedColumns(seed: Seed | undefined): [number | null, string | null] {
  const canonical = seed === undefined ? null : normalizeSeed(seed);
  if (canonical === null) return [null, null];
  return typeof canonical === 'number' ? [canonical, null] : [null, canonical];
}

export function createImages(ctx: StoreContext) {
  const insert = ctx.sql.prepare(
    'images.insert',
    `INSERT INTO images (id, job_id, idx, path, sha256, bytes, width, height, mime, thumb_path, seed, seed_digits, batch_index, phash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = ctx.sql.prepare<ImageRow>('images.get', 'SELECT * FROM images WHERE id = ?');
  // One query per page: the ids arrive as a JSON array so the statement is prepared once for any page size.
  const forJobs = ctx.sql.prepare<ImageRow>(
    'images.forJobs',
    `SELECT i.* FROM json_each(?) AS ids JOIN images AS i ON i.job_id = ids.value ORDER BY i.job_id, i.idx`,
  );
  const tagsForJobs = ctx.sql.prepare<{ image_id: string; name: string }>(
    'images.tagsForJobs',
    `SELECT i.id AS image_id, t.name FROM json_each(?) AS ids JOIN images AS i ON i.job_id = ids.value
       JOIN image_tags AS it ON it.image_id = i.id JOIN tags AS t ON t.id = it.tag_id ORDER BY t.key`,
  );
  // Keyset pages by id, so a 100k-image library is read in slices between which the event loop runs.
  const pathsAfter = ctx.sql.prepare<Omit<ImagePathRow, 'linked'> & { linked: number }>(
    'images.pathsAfter',
    'SELECT id, path, thumb_path AS thumbPath, linked FROM images WHERE id > ? ORDER BY id LIMIT ?',
  );

  return {
    insertAll(jobId: string, images: NewImage[]): void {
      for (const image of images) {
        insert.run(
          image.id,
          jobId,
          image.index,
          image.path,
          image.sha256,
          image.bytes,
          image.width,
          image.height,
          image.mime,
          image.thumbPath,
          ...seedColumns(image.seed),
          image.batchIndex ?? null,
          image.phash === undefined ? null : hashToColumn(image.phash),
        );
      }
    },
    get(id: string): StoredImage | null {
      const row = byId.get(id);
      return row === undefined ? null : toStored(row);
    },
    summariesFor(jobIds: string[]): Map<string, ImageSummary[]> {
      const out = new Map<string, ImageSummary[]>();
      if (jobIds.length === 0) return out;
      const ids = JSON.stringify(jobIds);
      const tags = new Map<string, string[]>();
      for (const { image_id, name } of tagsForJobs.all(ids)) {
        const list = tags.get(image_id);
        if (list === undefined) tags.set(image_id, [name]);
        else list.push(name);
      }
      for (const row of forJobs.all(ids)) {
        let list = out.get(row.job_id);
        if (list === undefined) out.set(row.job_id, (list = []));
        const imageTags = tags.get(row.id);
        list.push({
          id: row.id,
          index: row.idx,
          width: row.width,
          height: row.height,
          mime: row.mime,
          bytes: row.bytes,
          ...perImage(row),
          ...(imageTags !== undefined && { tags: imageTags }),
        });
      }
      return out;
    },
    pathsPage(afterId: string | null, limit: number): ImagePathRow[] {
      return pathsAfter.all(afterId ?? '', limit).map((row) => ({ ...row, linked: row.linked === 1 }));
    },
  };
}

export type Images = ReturnType<typeof createImages>;
