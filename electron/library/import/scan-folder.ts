import { lstat, opendir, readdir } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { isInside } from '../../base/paths.js';

const SIDECAR_OWNERS = ['.png', '.jpg', '.jpeg', '.webp', '.avif'];

/** Names no tool's output is: hidden files and folders, and partial downloads or writes still in progress. */
export function isIgnoredName(name: string): boolean {
  return name.startsWith('.') || /\.(tmp|part|crdownload)$/i.test(name) || name.endsWith('~');
}

/** What a name that is not valid UTF-8 reads as: each bad byte becomes U+FFFD, so the path opens nothing. */
const REPLACEMENT = '\uFFFD';

const errnoOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | null)?.code;

/**
 * Every file below `root`, depth first, a folder's entries at a time (never the whole tree in memory). Symlinked
 * folders are not followed (a loop, or a way out of the folder the person chose); the data dir is skipped. An A1111
 * sidecar (`x.txt` beside `x.png`) is not a file of its own: it is read with its image. A folder that cannot be
 * listed (not allowed, a drive error, a name that is not valid UTF-8) is told to `onUnreadable`, never skipped silently.
 */
export async function* scanFolder(
  root: string,
  skip: readonly string[],
  onUnreadable?: (dir: string) => void,
): AsyncGenerator<string[]> {
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    if (skip.some((s) => isInside(s, dir))) continue;
    let entries: Array<{ name: string; file: boolean; dir: boolean }> = [];
    try {
      const handle = await opendir(dir, { bufferSize: 256 });
      for await (const entry of handle) {
        if (isIgnoredName(entry.name)) continue;
        entries.push({ name: entry.name, file: entry.isFile(), dir: entry.isDirectory() });
      }
    } catch (error) {
      // Only a folder that vanished since it was listed has nothing to report; a lossy name "vanishes" for good.
      const gone =
        (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') && !basename(dir).includes(REPLACEMENT);
      if (!gone) onUnreadable?.(dir);
      entries = [];
    }
    const names = new Set(entries.map((e) => e.name.toLowerCase()));
    const files: string[] = [];
    for (const entry of entries) {
      if (entry.dir) stack.push(join(dir, entry.name));
      else if (entry.file && !isSidecar(entry.name, names)) files.push(join(dir, entry.name));
    }
    files.sort();
    if (files.length > 0) yield files;
    // Sorted in reverse on the stack, so sub-folders are walked in name order.
    stack.push(
      ...stack
        .splice(stack.length - entries.filter((e) => e.dir).length)
        .sort()
        .reverse(),
    );
  }
}

function isSidecar(name: string, siblings: ReadonlySet<string>): boolean {
  if (extname(name).toLowerCase() !== '.txt') return false;
  const stem = basename(name, extname(name)).toLowerCase();
  return SIDECAR_OWNERS.some((ext) => siblings.has(stem + ext));
}

/**
 * Why a path the import could not read is unreadable, in words the person can act on; null when the usual reason
 * (gone, not allowed, damaged) already says it. Asked again when the file is processed, so a resumed import says it too.
 */
export async function whyUnreadable(path: string): Promise<string | null> {
  let isDir: boolean;
  try {
    isDir = (await lstat(path)).isDirectory();
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT' || !basename(path).includes(REPLACEMENT)) return null;
    return badName(path);
  }
  if (!isDir) return null;
  try {
    const handle = await opendir(path);
    await handle.close();
  } catch (error) {
    const code = errnoOf(error);
    const why =
      code === 'EACCES' || code === 'EPERM'
        ? 'Atelier is not allowed to open it'
        : `it could not be read (${code ?? 'error'})`;
    return `This folder was not imported: ${why}. Its files are not in the library; allow Atelier to read it and import again.`;
  }
  return 'This folder could not be read when it was scanned, so its files were not imported; import it again.';
}

/** The listed name whose bytes are not UTF-8 and that reads as this path's last part, if there is one. */
async function badName(path: string): Promise<string | null> {
  const entries = await readdir(dirname(path), { encoding: 'buffer', withFileTypes: true }).catch(() => []);
  const name = basename(path);
  const match = entries.find(
    (entry) => entry.name.toString('utf8') === name && !Buffer.from(name, 'utf8').equals(entry.name),
  );
  if (match === undefined) return null;
  const what = match.isDirectory() ? 'folder' : 'file';
  return `This ${what}'s name is not valid text (UTF-8), so Atelier cannot open it by name. Rename the ${what} and import again.`;
}
