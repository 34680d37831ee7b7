import { opendir } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { isInside } from './paths.js';

const SIDECAR_OWNERS = ['.png', '.jpg', '.jpeg', '.webp'];

/** Names no tool's output is: hidden files and folders, and partial downloads or writes still in progress. */
export function isIgnoredName(name: string): boolean {
  return name.startsWith('.') || /\.(tmp|part|crdownload)$/i.test(name) || name.endsWith('~');
}

/**
 * Every file below `root`, depth first, a folder's entries at a time (never the whole tree in memory). Symlinked
 * folders are not followed (a loop, or a way out of the folder the person chose); the data dir is skipped. An A1111
 * sidecar (`x.txt` beside `x.png`) is not a file of its own: it is read with its image.
 */
export async function* scanFolder(root: string, skip: readonly string[]): AsyncGenerator<string[]> {
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
    } catch {
      // A folder that vanished or cannot be listed: its files are simply not found (the import goes on).
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
    stack.push(...stack.splice(stack.length - entries.filter((e) => e.dir).length).sort().reverse());
  }
}

function isSidecar(name: string, siblings: ReadonlySet<string>): boolean {
  if (extname(name).toLowerCase() !== '.txt') return false;
  const stem = basename(name, extname(name)).toLowerCase();
  return SIDECAR_OWNERS.some((ext) => siblings.has(stem + ext));
}
