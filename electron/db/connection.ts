import { lstatSync } from 'node:fs';
import Database from 'better-sqlite3';
import { AppError } from '../../shared/errors.js';

export type Db = Database.Database;

/** Refuses anything at `path` that is not a plain file (symlink, directory, device): SQLite would follow or fail oddly. */
export function assertRegularFileOrMissing(path: string, what: string): void {
  let stat;
  try {
    stat = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new AppError('storage', `Atelier could not inspect its ${what} at ${path}.`, { cause: error });
  }
  if (stat.isSymbolicLink()) {
    throw new AppError('storage', `The ${what} at ${path} is a symbolic link; Atelier only opens a regular file.`, {
      details: { path },
    });
  }
  if (!stat.isFile()) {
    throw new AppError('storage', `The ${what} at ${path} is not a regular file.`, { details: { path } });
  }
}

export interface OpenDatabaseOptions {
  nativeBinding?: string;
  busyTimeoutMs?: number;
}

/** Opens the library database with the pragmas every connection needs. */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Db {
  assertRegularFileOrMissing(path, 'library database');
  let db: Db;
  try {
    db = new Database(path, options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding });
  } catch (error) {
    throw new AppError('storage', `Atelier could not open its library database at ${path}.`, { cause: error });
  }
  try {
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL: a power cut may lose the last few commits but never corrupts the file; an fsync per submit
    // (FULL) would cap throughput, and a job lost that way is one the worker had not yet paid a provider for
    // (images are fsynced as files before their rows commit, so a lost commit leaves an orphan file, never a hole).
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
    // Temporary sort/index space in memory: history pages are small, and it keeps the data dir free of temp files.
    db.pragma('temp_store = MEMORY');
    return db;
  } catch (error) {
    db.close();
    throw new AppError('storage', `Atelier could not prepare its library database at ${path}.`, { cause: error });
  }
}

/** PRAGMA quick_check: O(n) but skips index content checks; a damaged file is refused before anything writes to it. */
export function quickCheck(db: Db, path: string): void {
  const rows = db.pragma('quick_check') as Array<{ quick_check: string }>;
  const problems = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
  if (problems.length > 0) {
    throw new AppError(
      'storage',
      `The library database at ${path} is damaged (${problems[0]}). Restore a copy from the backups folder.`,
      { details: { path, problems: problems.slice(0, 5), reason: 'damaged' } },
    );
  }
}

/**
 * Rewrites user_version with its own value: SQLite opens a file it may not write (immutable, owned by another user)
 * read-only without a word, and the first save would fail; this fails at open instead, where it can be explained.
 */
export function probeWritable(db: Db): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  db.pragma(`user_version = ${Math.trunc(version)}`);
}
