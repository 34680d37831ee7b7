import { errnoOf, nodeMediaFs, type MediaFs } from './media-fs.js';
import { absolute, LIBRARY_DIR, PREVIEWS_DIR, THUMBS_DIR, TMP_DIR } from './media-paths.js';

export const DEFAULT_SWEEP_GRACE_MS = 60 * 60 * 1000;

export interface SweepResult {
  /** Relative paths removed (orphans under library/ and thumbs/, stale tmp/ files). */
  removed: string[];
  bytesFreed: number;
  /** Orphans younger than the grace period, left for a later sweep (a write may still be committing). */
  keptYoung: number;
  /** Preview folders removed. */
  previewsRemoved: number;
}

export interface MissingFiles {
  count: number;
  ids: string[];
}

async function list(fs: MediaFs, dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') return [];
    throw error;
  }
}

/** Every file two levels down (`root/ab/file`), as relative paths. */
async function shardedFiles(fs: MediaFs, dataDir: string, root: string): Promise<string[]> {
  const out: string[] = [];
  for (const shard of await list(fs, absolute(dataDir, root))) {
    for (const name of await list(fs, absolute(dataDir, `${root}/${shard}`))) out.push(`${root}/${shard}/${name}`);
  }
  return out;
}

/**
 * Start-up sweep: removes files under library/ and thumbs/ that no row references and tmp/ leftovers, once older
 * than `graceMs` (so a write between "file renamed" and "row committed" is never taken), and every preview folder
 * (no job is running at start). Rows are never touched: see `findMissingFiles`.
 */
export async function sweepOrphans(
  dataDir: string,
  referenced: ReadonlySet<string>,
  now: number,
  graceMs: number = DEFAULT_SWEEP_GRACE_MS,
  fs: MediaFs = nodeMediaFs,
  /** `previews: false` once jobs may be running: their preview folders are live. */
  options: { previews?: boolean } = {},
): Promise<SweepResult> {
  const result: SweepResult = { removed: [], bytesFreed: 0, keptYoung: 0, previewsRemoved: 0 };
  const candidates = [
    ...(await shardedFiles(fs, dataDir, LIBRARY_DIR)),
    ...(await shardedFiles(fs, dataDir, THUMBS_DIR)),
    ...(await list(fs, absolute(dataDir, TMP_DIR))).map((name) => `${TMP_DIR}/${name}`),
  ].filter((rel) => !referenced.has(rel));
  for (const rel of candidates) {
    const path = absolute(dataDir, rel);
    try {
      const stat = await fs.stat(path);
      if (!stat.isFile()) continue;
      if (now - stat.mtimeMs < graceMs) {
        result.keptYoung += 1;
        continue;
      }
      await fs.unlink(path);
      result.removed.push(rel);
      result.bytesFreed += stat.size;
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') throw error;
    }
  }
  if (options.previews !== false) result.previewsRemoved = await removePreviewFolders(dataDir, fs);
  return result;
}

/** Removes every partial-preview folder left by a previous run; returns how many. Only safe before jobs start. */
export async function removePreviewFolders(dataDir: string, fs: MediaFs = nodeMediaFs): Promise<number> {
  let removed = 0;
  for (const name of await list(fs, absolute(dataDir, PREVIEWS_DIR))) {
    await fs.rm(absolute(dataDir, `${PREVIEWS_DIR}/${name}`), { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

/** Image rows whose file is gone: reported (stats.missingFiles), never dropped. */
export async function findMissingFiles(
  dataDir: string,
  rows: ReadonlyArray<{ id: string; path: string }>,
  fs: MediaFs = nodeMediaFs,
): Promise<MissingFiles> {
  // One listing of library/ answers for nearly every row: a stat per row (100k of them) kept the I/O threads that
  // serve thumbnails busy for seconds after start-up.
  const listed = new Set(await shardedFiles(fs, dataDir, LIBRARY_DIR));
  const unlisted = rows.filter((row) => !listed.has(row.path));
  // Not in the listing (a path outside the shard layout, or a file written since): stat decides, a few at a time.
  const ids: string[] = [];
  const BATCH = 16;
  for (let i = 0; i < unlisted.length; i += BATCH) {
    const batch = unlisted.slice(i, i + BATCH);
    const present = await Promise.all(
      batch.map((row) =>
        fs.stat(absolute(dataDir, row.path)).then(
          (s) => s.isFile(),
          () => false,
        ),
      ),
    );
    batch.forEach((row, j) => {
      if (!present[j]) ids.push(row.id);
    });
  }
  return { count: ids.length, ids };
}
