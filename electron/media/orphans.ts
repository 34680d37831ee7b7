import { AppError } from '../../shared/errors.js';
import { errnoOf, nodeMediaFs, type MediaFs } from './media-fs.js';
import { absolute } from './media-paths.js';
import { toStorageError } from './storage-error.js';

/** Where the orphan collection moves files no row references: kept until the person removes them (a counted confirmation). */
export const ORPHANS_DIR = 'orphans';

export interface OrphanCount {
  files: number;
  bytes: number;
  /** Relative paths (orphans/library/ab/…), for removal. */
  paths: string[];
}

async function walk(fs: MediaFs, dataDir: string, rel: string, out: OrphanCount, depth: number): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(absolute(dataDir, rel));
  } catch (error) {
    if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') return;
    throw error;
  }
  for (const name of names.sort()) {
    const child = `${rel}/${name}`;
    const stat = await fs.stat(absolute(dataDir, child)).catch(() => null);
    if (stat === null) continue;
    if (stat.isFile()) {
      out.files += 1;
      out.bytes += stat.size;
      out.paths.push(child);
    } else if (stat.isDirectory() && depth > 0) {
      await walk(fs, dataDir, child, out, depth - 1);
    }
  }
}

/** Every file under orphans/ (the collection's layout is orphans/<library|thumbs>/ab/file). */
export async function countOrphans(dataDir: string, fs: MediaFs = nodeMediaFs): Promise<OrphanCount> {
  const out: OrphanCount = { files: 0, bytes: 0, paths: [] };
  await walk(fs, dataDir, ORPHANS_DIR, out, 4);
  return out;
}

/**
 * Deletes the kept orphans for good, only if the person confirmed the number that is there now: a count that
 * changed since they were asked (another collection, files put back by hand) is a `conflict`, and nothing is removed.
 */
export async function removeOrphans(
  dataDir: string,
  expectedCount: number,
  fs: MediaFs = nodeMediaFs,
): Promise<{ removed: number; bytesFreed: number }> {
  const now = await countOrphans(dataDir, fs);
  if (now.files !== expectedCount) {
    throw new AppError(
      'conflict',
      `The orphans folder now holds ${now.files} file${now.files === 1 ? '' : 's'}, not ${expectedCount}: nothing was removed. Check again and confirm the new count.`,
      { details: { expectedCount, actualCount: now.files } },
    );
  }
  let removed = 0;
  let bytesFreed = 0;
  for (const rel of now.paths) {
    const path = absolute(dataDir, rel);
    const stat = await fs.stat(path).catch(() => null);
    try {
      await fs.unlink(path);
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') continue;
      throw toStorageError(error, dataDir, `remove ${rel}`);
    }
    removed += 1;
    bytesFreed += stat?.size ?? 0;
  }
  return { removed, bytesFreed };
}
