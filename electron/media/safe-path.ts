import { isAbsolute, relative, resolve, sep } from 'node:path';
import { nodeMediaFs, type MediaFs } from './media-fs.js';

function inside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/**
 * A stored relative media path (forward slashes) as an absolute path inside dataDir, or null when it is empty,
 * absolute, has `..`/`.`/empty segments, backslashes or NUL, or would leave dataDir. Lexical only.
 */
export function resolveInsideDataDir(dataDir: string, relPath: string): string | null {
  if (relPath === '' || relPath.includes('\0') || relPath.includes('\\')) return null;
  if (relPath.startsWith('/') || /^[A-Za-z]:/.test(relPath)) return null;
  if (relPath.split('/').some((s) => s === '' || s === '.' || s === '..')) return null;
  const root = resolve(dataDir);
  const candidate = resolve(root, ...relPath.split('/'));
  return inside(root, candidate) ? candidate : null;
}

/**
 * Like `resolveInsideDataDir`, then follows symlinks: the real file must still sit inside the real dataDir.
 * Null when the file does not exist. Used by the media protocol and the headless host before serving a file.
 */
export async function resolveMediaPath(
  dataDir: string,
  relPath: string,
  fs: MediaFs = nodeMediaFs,
): Promise<string | null> {
  const lexical = resolveInsideDataDir(dataDir, relPath);
  if (lexical === null) return null;
  try {
    const [realRoot, realFile] = await Promise.all([fs.realpath(dataDir), fs.realpath(lexical)]);
    return inside(realRoot, realFile) && !realFile.endsWith(sep) ? realFile : null;
  } catch {
    return null;
  }
}
