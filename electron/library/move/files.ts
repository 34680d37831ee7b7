import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PARTIAL_MARKER } from './partial.js';

/**
 * What a move leaves out: the database (copied through SQLite's backup API, never as raw bytes of a live WAL file),
 * the process lock, the clean-close marker (it names the old file's inode) and partial previews (removed at start).
 */
export const NOT_COPIED = new Set([
  'atelier.db',
  'atelier.db-wal',
  'atelier.db-shm',
  'atelier.db-journal',
  'atelier.lock',
  'atelier.lock-journal',
  'atelier.lock.holders',
  'atelier.db.clean-close',
  'previews',
  // A killed move's marker: never part of a library.
  PARTIAL_MARKER,
]);

export interface LibraryFile {
  /** Relative to the data dir, with the platform's separators. */
  rel: string;
  size: number;
  mtimeMs: number;
  ino: number;
  mode: number;
}

export interface LibraryListing {
  files: LibraryFile[];
  dirs: { rel: string; mode: number }[];
  bytes: number;
  /** Symlinks and special files: not Atelier's, so never copied (and never deleted). */
  skipped: string[];
}

/** Every regular file of the data dir that a move copies, without following links. */
export async function listLibrary(dataDir: string): Promise<LibraryListing> {
  const listing: LibraryListing = { files: [], dirs: [], bytes: 0, skipped: [] };
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(join(dataDir, rel), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (rel === '' && NOT_COPIED.has(entry.name)) continue;
      const childRel = rel === '' ? entry.name : join(rel, entry.name);
      const info = await lstat(join(dataDir, childRel));
      if (info.isDirectory()) {
        listing.dirs.push({ rel: childRel, mode: info.mode & 0o777 });
        await walk(childRel);
      } else if (info.isFile()) {
        listing.files.push({
          rel: childRel,
          size: info.size,
          mtimeMs: info.mtimeMs,
          ino: info.ino,
          mode: info.mode & 0o777,
        });
        listing.bytes += info.size;
      } else {
        listing.skipped.push(childRel);
      }
    }
  };
  await walk('');
  return listing;
}

export async function sha256File(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { signal })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
