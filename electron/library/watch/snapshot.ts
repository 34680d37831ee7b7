import { lstat, mkdir, readlink, rename, rm, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import watcher from '@parcel/watcher';
import { AppError } from '../../../shared/errors.js';
import { isIgnoredPath } from './ignore.js';
import type { WatchLog } from './types.js';

/** True when `path` is `dir` or lies below it. */
export const isUnder = (dir: string, path: string): boolean =>
  path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/** Folders inside a root that are never watched nor reported (the data dir), as @parcel/watcher's ignore option. */
export function nativeIgnore(excluded: readonly string[]): { ignore: string[] } {
  // A path with glob characters would be read as a pattern: those are left to the JavaScript filter alone.
  return { ignore: excluded.filter((dir) => !/[*?[\]{}()!+@]/.test(dir)) };
}

/** Root ids name files in the snapshot folder: nothing that could climb out of it or hide. */
const ROOT_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

export function snapshotPath(snapshotDir: string, rootId: string): string {
  if (!ROOT_ID.test(rootId)) throw new AppError('invalid_request', `"${rootId}" is not a watched folder's id.`);
  return join(snapshotDir, `${rootId}.snapshot`);
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The root is a real folder now. A link in its place is refused by name: following it would read wherever it points,
 * outside what the person imported.
 */
export async function assertFolder(absRoot: string): Promise<void> {
  let info: Awaited<ReturnType<typeof lstat>> | null = null;
  try {
    info = await lstat(absRoot);
  } catch {
    // Reported below: missing and not-a-folder read the same to the person.
  }
  if (info?.isSymbolicLink() === true) {
    const to = await readlink(absRoot).catch(() => '?');
    throw new AppError(
      'not_found',
      `The folder ${absRoot} was replaced by a link (to ${to}). Atelier does not follow it: put the folder back, or import the place the link points to.`,
      { details: { reason: 'folder_replaced_by_link', path: absRoot, link: to } },
    );
  }
  if (info?.isDirectory() !== true) {
    throw new AppError(
      'not_found',
      `The folder ${absRoot} is not there any more (moved, deleted or its drive is gone).`,
      {
        details: { reason: 'folder_gone', path: absRoot },
      },
    );
  }
}

/** Writes the snapshot beside its final name and renames it in: a crash never leaves a half-written one. */
export async function writeRootSnapshot(
  snapshotDir: string,
  rootId: string,
  absRoot: string,
  excluded: readonly string[] = [],
): Promise<void> {
  const final = snapshotPath(snapshotDir, rootId);
  await assertFolder(absRoot);
  await mkdir(snapshotDir, { recursive: true });
  const partial = `${final}.partial`;
  try {
    await watcher.writeSnapshot(absRoot, partial, nativeIgnore(excluded));
    await rename(partial, final);
  } catch (error) {
    await rm(partial, { force: true });
    throw new AppError('storage', `Atelier could not record the state of ${absRoot}.`, { cause: error });
  }
}

export async function removeRootSnapshot(snapshotDir: string, rootId: string): Promise<void> {
  await rm(snapshotPath(snapshotDir, rootId), { force: true });
}

/** Files created, changed and removed under the root since its snapshot; null without a usable snapshot. */
export async function readChangesSince(
  snapshotDir: string,
  rootId: string,
  absRoot: string,
  log: WatchLog,
  excluded: readonly string[] = [],
): Promise<{ upserted: string[]; removed: string[] } | null> {
  const file = snapshotPath(snapshotDir, rootId);
  await assertFolder(absRoot);
  if (!(await exists(file))) return null;
  let events: watcher.Event[];
  try {
    events = await watcher.getEventsSince(absRoot, file, nativeIgnore(excluded));
  } catch (error) {
    log.warn("A watched folder's last snapshot could not be read; it will be scanned in full.", {
      root: absRoot,
      error: String(error),
    });
    return null;
  }
  const upserted = new Set<string>();
  const removed = new Set<string>();
  const candidates: string[] = [];
  for (const event of events) {
    if (isIgnoredPath(absRoot, event.path) || excluded.some((dir) => isUnder(dir, event.path))) continue;
    if (event.type === 'delete') removed.add(event.path);
    else candidates.push(event.path);
  }
  // A created folder's files are events of their own in the diff; only files are reported.
  for (let i = 0; i < candidates.length; i += 32) {
    await Promise.all(
      candidates.slice(i, i + 32).map(async (path) => {
        try {
          const info = await lstat(path);
          if (info.isFile() || (info.isSymbolicLink() && (await stat(path)).isFile())) upserted.add(path);
        } catch {
          removed.add(path);
        }
      }),
    );
  }
  for (const path of upserted) removed.delete(path);
  return { upserted: [...upserted], removed: [...removed] };
}
