import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, mkdir, open, readdir, rm, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../../shared/errors.js';
import { copyDatabase, DATABASE_FILE, openerFor, verifyDatabase } from './database.js';
import { listLibrary, sha256File, type LibraryFile, type LibraryListing } from './files.js';
import { clearPartialCopy, PARTIAL_MARKER, startJournal, type MoveJournal } from './partial.js';
import { checkTarget, freeSpaceOf, type FreeSpace } from './target.js';

export interface CopyProgress {
  phase: 'copying' | 'verifying';
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

/** Seams for the fault tests: a file changed or the drive pulled mid-copy, a disk that fills up. */
export interface CopyHooks {
  beforeFile?(rel: string): Promise<void> | void;
  openWrite?(path: string, mode: number): Writable;
  afterDatabaseCopy?(path: string): Promise<void> | void;
  freeSpace?: FreeSpace;
}

export interface VerifiedFile extends LibraryFile {
  sha256: string;
}

/** What was copied and verified: the only files a later "Delete the old copy" may remove. */
export interface CopiedLibrary {
  from: string;
  to: string;
  files: VerifiedFile[];
  /** The old database file(s), verified by integrity check and row counts rather than bytes. */
  database: LibraryFile[];
  /** Atelier's own lock and marker files beside them: no library data, removed with the old copy. */
  bookkeeping: LibraryFile[];
  /** The folders copied, removed from the old copy once empty. */
  dirs: string[];
  bytes: number;
}

export interface PreparedCopy {
  dataDir: string;
  target: string;
  listing: LibraryListing;
  database: LibraryFile[];
  bookkeeping: LibraryFile[];
  targetExisted: boolean;
  /** The target holds only a copy a killed move left: cleared before this copy starts. */
  partialCopy: boolean;
  bytesTotal: number;
}

const HOLDERS_DIR = 'atelier.lock.holders';
const BOOKKEEPING_FILES = ['atelier.lock', 'atelier.lock-journal', 'atelier.db.clean-close'];

async function fileOf(dataDir: string, rel: string): Promise<LibraryFile | null> {
  try {
    const info = await lstat(join(dataDir, rel));
    return info.isFile()
      ? { rel, size: info.size, mtimeMs: info.mtimeMs, ino: info.ino, mode: info.mode & 0o777 }
      : null;
  } catch {
    return null;
  }
}

/** The database and Atelier's lock files as they are now (reading the database may have added its -wal and -shm). */
async function listDatabaseFiles(dataDir: string): Promise<{ database: LibraryFile[]; bookkeeping: LibraryFile[] }> {
  const present = async (rels: string[]): Promise<LibraryFile[]> =>
    (await Promise.all(rels.map((rel) => fileOf(dataDir, rel)))).filter((file): file is LibraryFile => file !== null);
  const holders = await readdir(join(dataDir, HOLDERS_DIR)).catch(() => [] as string[]);
  return {
    database: await present([DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`]),
    bookkeeping: await present([...BOOKKEEPING_FILES, ...holders.map((name) => join(HOLDERS_DIR, name))]),
  };
}

/** Lists the library and checks the target (empty or new, outside, room for it all) before anything is written. */
export async function prepareCopy(
  dataDir: string,
  target: string,
  freeSpace: FreeSpace = freeSpaceOf,
  imported: readonly string[] = [],
): Promise<PreparedCopy> {
  const listing = await listLibrary(dataDir);
  const { database, bookkeeping } = await listDatabaseFiles(dataDir);
  const bytesTotal = listing.bytes + database.reduce((sum, file) => sum + file.size, 0);
  const { exists, partialCopy } = await checkTarget(dataDir, target, bytesTotal, freeSpace, imported);
  return { dataDir, target, listing, database, bookkeeping, targetExisted: exists, partialCopy, bytesTotal };
}

const sameFile = (a: LibraryFile, b: LibraryFile | null): boolean =>
  b !== null && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

/** A fault as words a person understands; the old library is untouched whatever happened. */
export function explainCopyFault(error: unknown, target: string): AppError {
  if (error instanceof AppError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if ((error as Error).name === 'AbortError')
    return new AppError('cancelled', 'The move was cancelled; the library stays where it was.');
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new AppError(
      'storage',
      `The drive of ${target} filled up during the copy. Nothing changed: the library stays where it was.`,
      {
        details: { reason: 'target_full' },
      },
    );
  }
  const path = (error as NodeJS.ErrnoException).path;
  if (path !== undefined && !path.startsWith(target)) {
    return new AppError(
      'storage',
      `A file of the library could not be read (${code ?? 'error'} on ${path}), so the move stopped. The library stays where it was.`,
      {
        details: { reason: 'source_unreadable', errno: code },
      },
    );
  }
  if (code === 'ENOENT' || code === 'EIO' || code === 'ENODEV' || code === 'ENXIO' || code === 'EROFS') {
    return new AppError(
      'storage',
      `${target} went away during the copy (was its drive disconnected?). Nothing changed: the library stays where it was.`,
      {
        details: { reason: 'target_gone', errno: code },
      },
    );
  }
  return new AppError(
    'storage',
    `The copy to ${target} failed (${code ?? (error as Error).message}). Nothing changed: the library stays where it was.`,
    {
      details: { reason: 'copy_failed' },
    },
  );
}

/**
 * Copies every file (hashing what it reads), then the database through the backup API, then verifies: each copy's
 * sha256 against the source's, read again, and the database by `PRAGMA integrity_check` and its row counts. Any
 * fault removes what this copy wrote (the whole folder only if it made it) and throws a structured error.
 */
export async function copyLibrary(
  dataDir: string,
  target: string,
  options: {
    signal: AbortSignal;
    onProgress(progress: CopyProgress): void;
    nativeBinding?: string;
    hooks?: CopyHooks;
    /** The imported folders (read while the library was open): the target may not lie inside one. */
    imported?: readonly string[];
  },
): Promise<CopiedLibrary> {
  const hooks = options.hooks ?? {};
  // Listed again now that the library is closed: what the engine wrote since the first look is in, and its lock is free.
  const prepared = await prepareCopy(dataDir, target, hooks.freeSpace, options.imported);
  const { listing } = prepared;
  const written: string[] = [];
  const madeDirs: string[] = [];
  let createdTop: string | undefined;
  let journal: MoveJournal | undefined;
  const progress: CopyProgress = {
    phase: 'copying',
    filesDone: 0,
    filesTotal: listing.files.length + 1,
    bytesDone: 0,
    bytesTotal: prepared.bytesTotal,
  };
  const report = (): void => options.onProgress({ ...progress });
  try {
    // What a killed move left here goes first (only what its marker names); the copy then starts from an empty folder.
    if (prepared.partialCopy) await clearPartialCopy(target);
    createdTop = await mkdir(target, { recursive: true });
    // The marker comes before any file: a kill from here on leaves a folder a retry recognises as Atelier's own.
    journal = await startJournal(target, dataDir);
    for (const dir of listing.dirs) {
      await mkdir(join(target, dir.rel), { mode: dir.mode });
      madeDirs.push(dir.rel);
      await journal.add(dir.rel);
    }
    report();
    const hashes = new Map<string, string>();
    for (const file of listing.files) {
      options.signal.throwIfAborted();
      await hooks.beforeFile?.(file.rel);
      const out = join(target, file.rel);
      const hash = createHash('sha256');
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          progress.bytesDone += chunk.length;
          done(null, chunk);
        },
      });
      let sink: Writable;
      if (hooks.openWrite !== undefined) {
        written.push(file.rel);
        await journal.add(file.rel);
        sink = hooks.openWrite(out, file.mode);
      } else {
        // Created exclusively, then named as written: a file someone else put there is never counted as the copy's.
        const handle = await open(out, 'wx', file.mode);
        written.push(file.rel);
        await journal.add(file.rel);
        sink = handle.createWriteStream();
      }
      await pipeline(createReadStream(join(dataDir, file.rel)), counter, sink, { signal: options.signal });
      const handle = await open(out, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      // Changed while it was read: the copy would hold neither version.
      if (!sameFile(file, await fileOf(dataDir, file.rel))) throw changedError(file.rel);
      hashes.set(file.rel, hash.digest('hex'));
      progress.filesDone += 1;
      report();
    }
    options.signal.throwIfAborted();
    await journal.add(DATABASE_FILE);
    await journal.add(`${DATABASE_FILE}-journal`);
    written.push(DATABASE_FILE);
    const openDb = openerFor(options.nativeBinding);
    const before = progress.bytesDone;
    await copyDatabase(join(dataDir, DATABASE_FILE), join(target, DATABASE_FILE), openDb, (done, total) => {
      progress.bytesDone = before + Math.round((prepared.bytesTotal - before) * (total === 0 ? 1 : done / total));
      report();
    });
    progress.filesDone += 1;
    progress.bytesDone = prepared.bytesTotal;
    report();
    await hooks.afterDatabaseCopy?.(join(target, DATABASE_FILE));

    progress.phase = 'verifying';
    progress.filesDone = 0;
    progress.bytesDone = 0;
    report();
    const files: VerifiedFile[] = [];
    for (const file of listing.files) {
      options.signal.throwIfAborted();
      const [copy, original] = await Promise.all([
        sha256File(join(target, file.rel), options.signal),
        sha256File(join(dataDir, file.rel), options.signal),
      ]);
      const expected = hashes.get(file.rel);
      if (original !== expected) throw changedError(file.rel);
      if (copy !== expected) {
        throw new AppError(
          'storage',
          `The copy of ${file.rel} does not match the original (the drive may be failing). Nothing changed: the library stays where it was.`,
          {
            details: { reason: 'verify_mismatch', file: file.rel },
          },
        );
      }
      files.push({ ...file, sha256: copy });
      progress.filesDone += 1;
      progress.bytesDone += file.size;
      report();
    }
    verifyDatabase(join(dataDir, DATABASE_FILE), join(target, DATABASE_FILE), openDb);
    progress.filesDone += 1;
    progress.bytesDone = prepared.bytesTotal;
    report();
    // Verified: the folder is a whole library now, no longer a partial copy.
    await journal.finish();
    return {
      from: dataDir,
      to: target,
      files,
      ...(await listDatabaseFiles(dataDir)),
      dirs: listing.dirs.map((dir) => dir.rel),
      bytes: prepared.bytesTotal,
    };
  } catch (error) {
    await journal?.close().catch(() => undefined);
    await removePartialCopy(target, createdTop, written, madeDirs, journal !== undefined);
    throw explainCopyFault(error, target);
  }
}

const changedError = (rel: string): AppError =>
  new AppError(
    'conflict',
    `${rel} changed while it was being copied, so the copy was stopped. Nothing changed: the library stays where it was; try the move again.`,
    {
      details: { reason: 'source_changed', file: rel },
    },
  );

/** Removes only what this copy made: the folder itself when it created it, else its own files and folders. */
async function removePartialCopy(
  target: string,
  createdTop: string | undefined,
  written: string[],
  madeDirs: string[],
  marked: boolean,
): Promise<void> {
  if (createdTop !== undefined) {
    await rm(createdTop, { recursive: true, force: true }).catch(() => undefined);
    return;
  }
  for (const rel of written) await unlink(join(target, rel)).catch(() => undefined);
  await unlink(join(target, `${DATABASE_FILE}-journal`)).catch(() => undefined);
  for (const rel of [...madeDirs].reverse()) await rmdir(join(target, rel)).catch(() => undefined);
  if (marked) await unlink(join(target, PARTIAL_MARKER)).catch(() => undefined);
}
