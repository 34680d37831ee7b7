import { existsSync, readdirSync } from 'node:fs';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { mkdir } from 'node:fs/promises';

/** Where the library was moved to, kept beside the app's own settings (userData), outside any library. */
export const POINTER_FILE = 'library-location.json';

export const pointerPath = (userData: string): string => join(userData, POINTER_FILE);

/** The remembered library folder, or null when none was chosen (or the file is unreadable: the default applies). */
export async function readPointer(path: string): Promise<string | null> {
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as { dataDir?: unknown };
    return typeof value.dataDir === 'string' && isAbsolute(value.dataDir) ? value.dataDir : null;
  } catch {
    return null;
  }
}

/** Written whole or not at all: a temp file, fsynced, renamed over the old one. */
export async function writePointer(path: string, dataDir: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify({ dataDir, savedAt: new Date().toISOString() }, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
}

export async function clearPointer(path: string): Promise<void> {
  await rm(path, { force: true });
}

/**
 * A remembered folder is there when it exists and is not empty: an empty folder is what an unplugged drive leaves
 * of its mount point, and opening it would start a new, empty library in its place.
 */
export function libraryPresent(dataDir: string): boolean {
  if (!existsSync(dataDir)) return false;
  try {
    return readdirSync(dataDir).length > 0;
  } catch {
    return false;
  }
}
