import { isAbsolute, relative, resolve } from 'node:path';

/** True when `child` is `parent` itself or below it (both absolute and already resolved). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  // Up a level is ".." alone or followed by a separator: a folder named "..0" inside is still inside.
  return rel === '' || (!/^\.\.(?:[\\/]|$)/.test(rel) && !isAbsolute(rel));
}

/** True when candidate lies below root, never root itself (both absolute); lexical, no file system. */
export function isStrictlyInside(root: string, candidate: string): boolean {
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
  return isStrictlyInside(root, candidate) ? candidate : null;
}
