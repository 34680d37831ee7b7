/**
 * The one way Atelier opens a file it did not write (an imported original, a sidecar, a watched file): its real
 * path must lie inside the root it was imported from, it must be a regular file (never a pipe, a device or a
 * folder) and no larger than asked. Anything else is a `RefusedRead` with words for the person, never a hang.
 */
import { constants } from 'node:fs';
import { lstat, open, realpath, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isInside } from '../../base/paths.js';

export type RefusalReason = 'outside' | 'not_file' | 'too_large' | 'gone' | 'unreadable' | 'changed';

export class RefusedRead extends Error {
  readonly reason: RefusalReason;
  readonly code: string | undefined;
  constructor(reason: RefusalReason, message: string, code?: string) {
    super(message);
    this.name = 'RefusedRead';
    this.reason = reason;
    this.code = code;
  }
}

export interface GuardedTarget {
  /** The file as found or recorded. */
  path: string;
  /** Where it must really lie: the folder (or the single file) the person imported, or the data dir. */
  root: string;
  /** Larger files are refused before a byte is read. */
  maxBytes: number;
  /**
   * The root itself may be a link (the data dir a person moved behind one). An imported root never may: its real
   * path was recorded at import, so a folder swapped for a link since leads somewhere the person never chose.
   */
  rootMayBeLink?: boolean;
}

export interface GuardedFile {
  handle: FileHandle;
  /** The real path that was opened. */
  real: string;
  size: number;
  mtimeMs: number;
}

const megabytes = (bytes: number): string => `${Math.round(bytes / 1024 / 1024)} MB`;

export const refusals = {
  outside: () =>
    new RefusedRead(
      'outside',
      'It leads outside the folder it was imported from (a link), so Atelier does not read it.',
    ),
  notFile: () =>
    new RefusedRead(
      'not_file',
      'It is not a regular file (a pipe, a device or a folder), so Atelier does not read it.',
    ),
  tooLarge: (max: number) =>
    new RefusedRead('too_large', `It is larger than ${megabytes(max)}: not a file Atelier reads.`),
  changed: () =>
    new RefusedRead(
      'changed',
      'The file has changed since Atelier stored it: import it again to work from the new version.',
    ),
  replaced: () => new RefusedRead('changed', 'The file was replaced while Atelier was reading it: try again.'),
};

/** An operating system's error as the person's words. */
export function refusalOf(error: unknown): RefusedRead {
  if (error instanceof RefusedRead) return error;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return new RefusedRead('gone', 'The file is gone (moved or deleted).', code);
  if (code === 'EACCES' || code === 'EPERM')
    return new RefusedRead('unreadable', 'Atelier is not allowed to read this file.', code);
  // O_NOFOLLOW met a link swapped in after the path was resolved.
  if (code === 'ELOOP') return refusals.outside();
  if (code === 'EIO' || code === 'ENXIO' || code === 'ENODEV')
    return new RefusedRead('unreadable', 'The drive could not be read (was it unplugged?).', code);
  return new RefusedRead('unreadable', `The file could not be read${code === undefined ? '' : ` (${code})`}.`, code);
}

// No link followed at the last step, and never a wait: opening a FIFO without O_NONBLOCK blocks until a writer comes.
const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

async function realRootOf(target: GuardedTarget): Promise<string> {
  if (target.rootMayBeLink === true) return realpath(target.root);
  return join(await realpath(dirname(target.root)), basename(target.root));
}

/** Opens the file read-only after every check; the caller closes the handle. */
export async function openGuarded(target: GuardedTarget): Promise<GuardedFile> {
  let root: string;
  let real: string;
  let before: Awaited<ReturnType<typeof lstat>>;
  try {
    [root, real] = await Promise.all([realRootOf(target), realpath(target.path)]);
    if (!isInside(root, real)) throw refusals.outside();
    before = await lstat(real);
  } catch (error) {
    throw refusalOf(error);
  }
  if (!before.isFile()) throw refusals.notFile();
  if (before.size > target.maxBytes) throw refusals.tooLarge(target.maxBytes);
  let handle: FileHandle;
  try {
    handle = await open(real, FLAGS);
  } catch (error) {
    throw refusalOf(error);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw refusals.notFile();
    // Another file put in its place between the checks and the open: what was checked is not what is open.
    if (info.ino !== before.ino || info.dev !== before.dev) throw refusals.replaced();
    if (info.size > target.maxBytes) throw refusals.tooLarge(target.maxBytes);
    return { handle, real, size: info.size, mtimeMs: info.mtimeMs };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw refusalOf(error);
  }
}
