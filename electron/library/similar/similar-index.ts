/**
 * Find similar and show duplicates over the in-memory hash index: loaded lazily in slices (the loop keeps serving
 * while a million hashes load), kept current by new rows (read by rowid since the last look) and by hashes recorded
 * later (added as they are written), and checked against the database before anything is answered.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { DuplicateGroup, JobSummary, SimilarImage } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { HashedImage } from '../../db/similar.js';
import type { JobStore } from '../../db/types.js';
import { hashHalves, popcount32, type ColourSignature } from '../../media/perceptual-hash.js';
import { HashIndex } from './hash-index.js';
import { NEAR_COPY_DISTANCE, isNearCopy } from './near-copy.js';

/** "Find similar" lists images at most this many bits of 64 apart (unrelated pictures sit around 32); calibrated. */
export const SIMILAR_MAX_DISTANCE = 14;
export const DUPLICATES_PAGE = 50;
const LOAD_SLICE = 10_000;
/** Above this many hashes, grouping probes one bit per block, not two (the cost grows with the square of the buckets). */
const WIDE_PROBE_MAX = 250_000;

export interface SimilarIndexDeps {
  store: JobStore;
  /** Makes and records the hash of an image that has none yet (Find similar on it before the background pass). */
  hashNow(imageId: string): Promise<string | null>;
  /** An image's mean colour and contrast, from its thumbnail (null: unreadable), for the pairs the hash links. */
  colourOf(imageId: string): Promise<ColourSignature | null>;
}

export interface DuplicatesPage {
  groups: DuplicateGroup[];
  jobs: JobSummary[];
  nextCursor: string | null;
}

export function createSimilarIndex(deps: SimilarIndexDeps) {
  const { store } = deps;
  const index = new HashIndex();
  /** Rows up to this rowid are in the index (or hold no hash yet: those arrive through record()). */
  let loadedTo = 0;
  let loaded: Promise<void> | null = null;
  let groupsCache: { size: number; groups: Array<{ key: number; rowids: number[] }> } | null = null;
  let grouping: Promise<Array<{ key: number; rowids: number[] }>> | null = null;
  // Only images the hash puts in a group are read, each once: an image's pixels never change.
  const colours = new Map<string, Promise<ColourSignature | null>>();
  const colourOf = (imageId: string): Promise<ColourSignature | null> => {
    let known = colours.get(imageId);
    if (known === undefined) {
      known = deps.colourOf(imageId).catch(() => null);
      colours.set(imageId, known);
    }
    return known;
  };

  const readSlice = (limit: number): number => {
    const rows = store.similar.hashPage(loadedTo, limit);
    for (const [rowid, hi, lo] of rows) index.add(rowid, hi, lo);
    if (rows.length > 0) loadedTo = rows[rows.length - 1]![0];
    return rows.length;
  };

  const ready = async (): Promise<void> => {
    loaded ??= (async () => {
      while (readSlice(LOAD_SLICE) === LOAD_SLICE) await yieldToLoop();
    })();
    await loaded;
    // Rows committed since: generated images arrive with their hash in the row.
    while (readSlice(LOAD_SLICE) === LOAD_SLICE) await yieldToLoop();
  };

  /** The live images behind rowids, each once, its current hash equal to the entry's (stale entries dropped). */
  const live = (rowids: readonly number[]): Map<number, HashedImage> => {
    const out = new Map<number, HashedImage>();
    for (const image of store.similar.resolve(rowids))
      if (!image.trashed && image.hi !== null) out.set(image.rowid, image);
    return out;
  };

  const hashOf = async (imageId: string): Promise<HashedImage & { hi: number; lo: number }> => {
    const image = store.similar.image(imageId);
    if (image === null)
      throw new AppError('not_found', 'This image is no longer in the library.', { details: { imageId } });
    if (image.hi !== null && image.lo !== null) return { ...image, hi: image.hi, lo: image.lo };
    const made = await deps.hashNow(imageId);
    if (made === null)
      throw new AppError('invalid_request', 'Atelier could not read this image to compare it with others.', {
        details: { imageId },
      });
    const [hi, lo] = hashHalves(made);
    return { ...image, hi, lo };
  };

  async function similar(imageId: string, limit: number): Promise<{ items: SimilarImage[]; jobs: JobSummary[] }> {
    const me = await hashOf(imageId);
    await ready();
    // Trashed and stale entries are dropped after the scan: ask for more until the page is full or nothing is left.
    let cap = limit * 2 + 16;
    for (;;) {
      const near = index.within(me.hi, me.lo, SIMILAR_MAX_DISTANCE, cap);
      const found = live(near.map((n) => n.rowid));
      const items: SimilarImage[] = [];
      const seen = new Set<number>([me.rowid]);
      for (const { rowid, distance } of near) {
        const image = found.get(rowid);
        if (image === undefined || seen.has(rowid)) continue;
        const [hi, lo] = [image.hi!, image.lo!];
        // A stale entry: the image was hashed again since (its current hash is elsewhere in the index).
        if (distance !== distanceOf(hi, lo, me.hi, me.lo)) continue;
        seen.add(rowid);
        items.push({ imageId: image.imageId, jobId: image.jobId, distance });
        if (items.length === limit) break;
      }
      if (items.length === limit || near.length < cap) {
        return { items, jobs: store.similar.jobSummaries([...new Set(items.map((i) => i.jobId))]) };
      }
      cap *= 4;
    }
  }

  const groupsNow = async (): Promise<Array<{ key: number; rowids: number[] }>> => {
    await ready();
    if (groupsCache !== null && groupsCache.size === index.size) return groupsCache.groups;
    grouping ??= (async () => {
      const size = index.size;
      const groups = await index.groupsAsync(NEAR_COPY_DISTANCE, yieldToLoop, size > WIDE_PROBE_MAX ? 1 : 2);
      // Newest first: a group sorts by its newest row, and the cursor is that key.
      const keyed = groups.map((rowids) => ({ key: Math.max(...rowids), rowids })).sort((a, b) => b.key - a.key);
      groupsCache = { size, groups: keyed };
      return keyed;
    })().finally(() => {
      grouping = null;
    });
    return grouping;
  };

  async function duplicates(cursor: string | undefined): Promise<DuplicatesPage> {
    const all = await groupsNow();
    const after = cursor === undefined ? Number.POSITIVE_INFINITY : Number(cursor);
    let start = all.findIndex((g) => g.key < after);
    if (start === -1) start = all.length;
    const groups: DuplicateGroup[] = [];
    let next = start;
    while (next < all.length && groups.length < DUPLICATES_PAGE) {
      const slice = all.slice(next, next + DUPLICATES_PAGE);
      const found = live(slice.flatMap((g) => g.rowids));
      for (const group of slice) {
        next += 1;
        for (const copies of await nearCopies(group.rowids, found, colourOf)) groups.push(...describe(copies));
        if (groups.length >= DUPLICATES_PAGE) break;
      }
    }
    const jobIds = [...new Set(groups.flatMap((g) => g.jobIds))];
    return {
      groups,
      jobs: store.similar.jobSummaries(jobIds),
      nextCursor: next < all.length ? String(all[next - 1]!.key) : null,
    };
  }

  return {
    similar,
    duplicates,
    /** Writes an image's hash and puts it in the index at once (an import's thumbnails, the background pass). */
    record(imageId: string, hash: string): void {
      const rowid = store.similar.setHash(imageId, hash);
      // A row past loadedTo is read by the next look at new rows; one before it would never be read again.
      if (rowid !== null && rowid <= loadedTo) index.add(rowid, ...hashHalves(hash));
    },
    /** Images were deleted: a rowid SQLite gives out again must be read as new. */
    removed(): void {
      loadedTo = Math.min(loadedTo, store.similar.maxRowid());
    },
    size: () => index.size,
  };
}

function distanceOf(ahi: number, alo: number, bhi: number, blo: number): number {
  return popcount32((ahi ^ bhi) >>> 0) + popcount32((alo ^ blo) >>> 0);
}

/**
 * A group the hashes linked, split into the sets that are near copies by hash and colour together (a chain of near
 * copies is one set); the same bytes are always copies. Sets of one are left out.
 */
async function nearCopies(
  rowids: readonly number[],
  found: Map<number, HashedImage>,
  colourOf: (imageId: string) => Promise<ColourSignature | null>,
): Promise<HashedImage[][]> {
  const members = [...new Set(rowids)].map((r) => found.get(r)).filter((m): m is HashedImage => m !== undefined);
  if (members.length < 2) return [];
  const signatures = await Promise.all(members.map((m) => colourOf(m.imageId)));
  const parent = members.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  for (let i = 0; i < members.length; i += 1) {
    for (let j = i + 1; j < members.length; j += 1) {
      const [a, b] = [members[i]!, members[j]!];
      const [ca, cb] = [signatures[i] ?? null, signatures[j] ?? null];
      const linked =
        a.sha256 === b.sha256 ||
        (ca !== null && cb !== null && isNearCopy(distanceOf(a.hi!, a.lo!, b.hi!, b.lo!), ca, cb));
      if (linked) parent[Math.max(root(i), root(j))] = Math.min(root(i), root(j));
    }
  }
  const sets = new Map<number, HashedImage[]>();
  members.forEach((m, i) => {
    const list = sets.get(root(i));
    if (list === undefined) sets.set(root(i), [m]);
    else list.push(m);
  });
  return [...sets.values()].filter((list) => list.length > 1);
}

/**
 * One set of copies as the person sees them: its exact copies (same SHA-256) as their own groups, and the whole set
 * as near copies when it holds more than one distinct picture file.
 */
function describe(members: HashedImage[]): DuplicateGroup[] {
  if (members.length < 2) return [];
  members.sort((a, b) => (a.imageId < b.imageId ? 1 : -1));
  const bySha = new Map<string, HashedImage[]>();
  for (const m of members) {
    const list = bySha.get(m.sha256);
    if (list === undefined) bySha.set(m.sha256, [m]);
    else list.push(m);
  }
  const out: DuplicateGroup[] = [];
  const group = (kind: DuplicateGroup['kind'], list: HashedImage[]): DuplicateGroup => ({
    kind,
    imageIds: list.map((m) => m.imageId),
    jobIds: [...new Set(list.map((m) => m.jobId))],
  });
  for (const list of bySha.values()) if (list.length > 1) out.push(group('exact', list));
  if (bySha.size > 1) out.push(group('near', members));
  return out;
}
