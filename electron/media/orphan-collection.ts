import { errnoOf, nodeMediaFs, type MediaFs } from './media-fs.js';
import { ensureDir } from './atomic-write.js';
import { absolute, LIBRARY_DIR, PREVIEWS_DIR, THUMBS_DIR, TMP_DIR } from './media-paths.js';
import { ORPHANS_DIR } from './orphans.js';

export const DEFAULT_ORPHAN_GRACE_MS = 60 * 60 * 1000;

export interface OrphanCollection {
  /** Relative paths moved from library/ and thumbs/ into orphans/ (same relative layout beneath it). */
  moved: string[];
  bytesMoved: number;
  /** Stale tmp/ files removed (Atelier's own half-written temp files). */
  tmpRemoved: number;
  /** Orphans younger than the grace period, left for a later collection (a write may still be committing). */
  keptYoung: number;
  /** Unreferenced entries whose names are not Atelier's content-addressed ones: never touched. */
  leftAlone: number;
  /** Preview folders removed. */
  previewsRemoved: number;
  /** Files that could not be moved or removed (permissions, a full disk): left where they are. */
  failed: number;
  /** Files in library/, and how many of them no row references. */
  libraryFiles: number;
  unreferencedLibraryFiles: number;
  /**
   * True when the database knows fewer than half of library/'s files (a new, empty or replaced database): then
   * nothing under library/ or thumbs/ is moved, and the history should be rebuilt from the files instead.
   */
  held: boolean;
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
export async function shardedFiles(fs: MediaFs, dataDir: string, root: string): Promise<string[]> {
  const out: string[] = [];
  for (const shard of await list(fs, absolute(dataDir, root))) {
    for (const name of await list(fs, absolute(dataDir, `${root}/${shard}`))) out.push(`${root}/${shard}/${name}`);
  }
  return out;
}

/** Names Atelier gives its own files: `ab/cdef….png|webp` (the sha256 split after two hex digits), `tmp/….part`. */
const SHARD = /^[0-9a-f]{2}$/;
const CONTENT_NAME = /^[0-9a-f]{62}\.(png|webp)$/;
const TMP_NAME = /^[0-9a-f]{16}\.part$/;

function isOwnName(rel: string): boolean {
  const [, shard, name] = rel.split('/');
  return shard !== undefined && name !== undefined && SHARD.test(shard) && CONTENT_NAME.test(name);
}

/**
 * The library needs recovery, not an orphan collection, when more of library/'s files are unknown to the database than known:
 * an orphan is a rare leftover of a crash, while an empty or replaced database leaves nearly every file unknown.
 */
export function databaseLooksLost(libraryFiles: number, unreferenced: number): boolean {
  return unreferenced > 0 && unreferenced > libraryFiles - unreferenced;
}

async function moveAside(fs: MediaFs, dataDir: string, rel: string): Promise<void> {
  const target = `${ORPHANS_DIR}/${rel}`;
  await ensureDir(dataDir, target.split('/').slice(0, -1).join('/'), fs);
  await fs.rename(absolute(dataDir, rel), absolute(dataDir, target));
}

/**
 * Start-up orphan collection. Nothing under library/ or thumbs/ is ever deleted: a file no row references, older than
 * `graceMs` (so a write between "file renamed" and "row committed" is never taken) and named as Atelier names its
 * files, is moved to orphans/, where it is counted and kept until the person removes it. When the database looks
 * lost (see `databaseLooksLost`) nothing is moved at all. Stale tmp/ files are removed, and every preview folder
 * (no job is running at start). Rows are never touched: see `findMissingFiles`.
 */
export async function collectOrphans(
  dataDir: string,
  referenced: ReadonlySet<string>,
  now: number,
  graceMs: number = DEFAULT_ORPHAN_GRACE_MS,
  fs: MediaFs = nodeMediaFs,
  /** `previews: false` once jobs may be running: their preview folders are live. */
  options: { previews?: boolean } = {},
): Promise<OrphanCollection> {
  const library = await shardedFiles(fs, dataDir, LIBRARY_DIR);
  const unreferencedLibrary = library.filter((rel) => !referenced.has(rel));
  const held = databaseLooksLost(library.length, unreferencedLibrary.length);
  const result: OrphanCollection = {
    moved: [],
    bytesMoved: 0,
    tmpRemoved: 0,
    keptYoung: 0,
    leftAlone: 0,
    previewsRemoved: 0,
    failed: 0,
    libraryFiles: library.length,
    unreferencedLibraryFiles: unreferencedLibrary.length,
    held,
  };
  const media = held
    ? []
    : [...unreferencedLibrary, ...(await shardedFiles(fs, dataDir, THUMBS_DIR)).filter((rel) => !referenced.has(rel))];
  const tmp = (await list(fs, absolute(dataDir, TMP_DIR))).map((name) => `${TMP_DIR}/${name}`);
  for (const rel of [...media, ...tmp]) {
    const isTmp = rel.startsWith(`${TMP_DIR}/`);
    if (isTmp ? !TMP_NAME.test(rel.slice(TMP_DIR.length + 1)) : !isOwnName(rel)) {
      result.leftAlone += 1;
      continue;
    }
    const path = absolute(dataDir, rel);
    try {
      const stat = await fs.stat(path);
      if (!stat.isFile()) continue;
      if (now - stat.mtimeMs < graceMs) {
        result.keptYoung += 1;
        continue;
      }
      if (isTmp) {
        await fs.unlink(path);
        result.tmpRemoved += 1;
        continue;
      }
      await moveAside(fs, dataDir, rel);
      result.moved.push(rel);
      result.bytesMoved += stat.size;
    } catch (error) {
      // One stubborn file must not stop the collection: it stays where it is, and is counted.
      if (errnoOf(error) !== 'ENOENT') result.failed += 1;
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
