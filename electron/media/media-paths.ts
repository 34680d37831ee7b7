import { join } from 'node:path';

/** Layout of the data dir (docs/ARCHITECTURE.md "Library on disk"); relative paths always use forward slashes. */
export const LIBRARY_DIR = 'library';
export const THUMBS_DIR = 'thumbs';
export const PREVIEWS_DIR = 'previews';
export const TMP_DIR = 'tmp';

/** `library/ab/cdef….png` for a sha256 hex digest. */
export function shardedPath(root: string, sha256: string, ext: string): string {
  return `${root}/${sha256.slice(0, 2)}/${sha256.slice(2)}.${ext}`;
}

export function absolute(dataDir: string, relative: string): string {
  return join(dataDir, ...relative.split('/'));
}
