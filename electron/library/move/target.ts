import { readdir, realpath, stat, statfs } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { AppError } from '../../../shared/errors.js';
import { isInside } from '../../base/paths.js';
import { partialCopyIn } from './partial.js';

/** Room kept free beyond the library's own size: the database copy and the file system's own bookkeeping. */
export const SPACE_MARGIN_BYTES = 64 * 1024 * 1024;

export type FreeSpace = (path: string) => Promise<number>;

export const freeSpaceOf: FreeSpace = async (path) => {
  const info = await statfs(path);
  return info.bavail * info.bsize;
};

const refuse = (message: string, reason: string, details: Record<string, unknown> = {}): AppError =>
  new AppError('invalid_request', message, { details: { reason, ...details } });

/** The nearest folder of `path` that exists (the target itself, or the parent a new target is made in). */
async function existingAncestor(path: string): Promise<string> {
  let dir = path;
  for (;;) {
    try {
      if ((await stat(dir)).isDirectory()) return dir;
      throw refuse(`${dir} is a file, not a folder.`, 'target_not_folder', { path: dir });
    } catch (error) {
      if (error instanceof AppError) throw error;
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const parent = dirname(dir);
    if (parent === dir) throw refuse(`No part of ${path} exists.`, 'target_missing', { path });
    dir = parent;
  }
}

/**
 * A move's target must be new or an empty folder (or hold only a copy a killed move left), outside the library (and
 * the library outside it), outside every imported folder, with room for `bytes` plus a margin. Returns whether the
 * folder already exists and whether it holds such a copy.
 */
export async function checkTarget(
  dataDir: string,
  target: string,
  bytes: number,
  freeSpace: FreeSpace = freeSpaceOf,
  imported: readonly string[] = [],
): Promise<{ exists: boolean; partialCopy: boolean }> {
  if (!isAbsolute(target)) throw refuse('Give the full path of the new folder.', 'target_relative');
  const realData = await realpath(dataDir);
  const anchor = await existingAncestor(resolve(target));
  const realAnchor = await realpath(anchor);
  // Compare real paths: a link into the library is still inside it.
  const realTarget = resolve(
    realAnchor,
    resolve(target)
      .slice(anchor.length)
      .replace(/^[\\/]+/, ''),
  );
  if (isInside(realData, realTarget)) {
    throw refuse('The new folder cannot be inside the library it copies.', 'target_inside_library', { path: target });
  }
  if (isInside(realTarget, realData)) {
    throw refuse('The new folder cannot contain the library it copies.', 'target_contains_library', { path: target });
  }
  for (const folder of imported) {
    // A library inside a watched or re-scanned folder would import its own thumbnails as pictures.
    const realFolder = await realpath(folder).catch(() => resolve(folder));
    if (isInside(realFolder, realTarget)) {
      throw refuse(
        `The new folder cannot be inside ${folder}: it is imported, so Atelier would import its own files.`,
        'target_inside_imported',
        { path: target, folder },
      );
    }
    if (isInside(realTarget, realFolder)) {
      throw refuse(`The new folder cannot contain ${folder}, which is imported.`, 'target_contains_imported', {
        path: target,
        folder,
      });
    }
  }
  const exists = anchor === resolve(target);
  let partialCopy = false;
  if (exists && (await readdir(anchor)).length > 0) {
    // A copy a killed move left (every entry named by its marker) counts as empty: the move clears it first.
    partialCopy = (await partialCopyIn(anchor)) !== null;
    if (!partialCopy)
      throw refuse(`${target} is not empty. Choose an empty or new folder.`, 'target_not_empty', { path: target });
  }
  const free = await freeSpace(anchor);
  if (free < bytes + SPACE_MARGIN_BYTES) {
    throw new AppError(
      'storage',
      `There is not enough space on the drive of ${target}: the library needs ${mb(bytes + SPACE_MARGIN_BYTES)} and ${mb(free)} are free.`,
      {
        details: { reason: 'target_no_space', needed: bytes + SPACE_MARGIN_BYTES, free },
      },
    );
  }
  return { exists, partialCopy };
}

const mb = (bytes: number): string => `${Math.ceil(bytes / (1024 * 1024)).toLocaleString('en')} MB`;
