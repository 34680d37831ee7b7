import { lstat, readdir, rmdir, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AppError } from '../../../shared/errors.js';
import type { CopiedLibrary } from './copy-library.js';

/** The old copy as the person is asked about it: its verified files and their bytes. */
export function oldCopyCounts(copied: CopiedLibrary): { files: number; bytes: number } {
  const all = [...copied.files, ...copied.database, ...copied.bookkeeping];
  return { files: all.length, bytes: all.reduce((sum, file) => sum + file.size, 0) };
}

export interface DeletedOldCopy {
  deletedFiles: number;
  deletedBytes: number;
  /** Files left because they changed since they were verified (or are already gone). */
  keptFiles: number;
}

/**
 * Deletes the verified files of the old copy and nothing else: each only while it is still the file that was
 * verified (same size, time and inode), then the folders that this leaves empty. The counts must be the ones the
 * person confirmed.
 */
export async function deleteOldCopy(
  copied: CopiedLibrary,
  confirmed: { files: number; bytes: number },
): Promise<DeletedOldCopy> {
  const counts = oldCopyCounts(copied);
  if (confirmed.files !== counts.files || confirmed.bytes !== counts.bytes) {
    throw new AppError(
      'conflict',
      `The old copy holds ${counts.files} files (${counts.bytes} bytes); confirm those numbers to delete it.`,
      {
        details: { reason: 'count_mismatch', ...counts },
      },
    );
  }
  const result: DeletedOldCopy = { deletedFiles: 0, deletedBytes: 0, keptFiles: 0 };
  const dirs = new Set<string>();
  for (const file of [...copied.files, ...copied.database, ...copied.bookkeeping]) {
    const path = join(copied.from, file.rel);
    const info = await lstat(path).catch(() => null);
    if (
      info === null ||
      !info.isFile() ||
      info.size !== file.size ||
      info.mtimeMs !== file.mtimeMs ||
      info.ino !== file.ino
    ) {
      result.keptFiles += 1;
      continue;
    }
    await unlink(path);
    result.deletedFiles += 1;
    result.deletedBytes += file.size;
    for (let dir = dirname(file.rel); dir !== '.' && dir !== ''; dir = dirname(dir)) dirs.add(dir);
  }
  // The previews folder is not copied (partials of running jobs only): it goes too when nothing is left in it.
  for (const dir of [...copied.dirs, 'atelier.lock.holders', 'previews']) dirs.add(dir);
  // Deepest first; a folder holding anything else (a file Atelier did not copy) stays.
  for (const dir of [...dirs].sort((a, b) => b.length - a.length))
    await rmdir(join(copied.from, dir)).catch(() => undefined);
  if ((await readdir(copied.from).catch(() => ['?'])).length === 0) await rmdir(copied.from).catch(() => undefined);
  return result;
}
