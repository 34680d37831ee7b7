import { createHash } from 'node:crypto';
import { writeFileAtomic, type WriteOptions } from './atomic-write.js';
import { shardedPath } from './media-paths.js';

export interface StoredFile {
  /** Relative to the data dir, forward slashes: `library/ab/cdef….png`. */
  path: string;
  sha256: string;
  bytes: number;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Writes bytes under `<root>/ab/cdef….<ext>` named by their sha256, atomically; identical content is stored once. */
export async function writeContentAddressed(
  dataDir: string,
  root: string,
  bytes: Uint8Array,
  ext: string,
  options: WriteOptions = {},
): Promise<StoredFile> {
  const sha256 = sha256Hex(bytes);
  const path = shardedPath(root, sha256, ext);
  await writeFileAtomic(dataDir, path, bytes, options);
  return { path, sha256, bytes: bytes.length };
}
