import { sep } from 'node:path';
import { isStrictlyInside, resolveInsideDataDir } from '../base/paths.js';
import { nodeMediaFs, type MediaFs } from './media-fs.js';

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
    return isStrictlyInside(realRoot, realFile) && !realFile.endsWith(sep) ? realFile : null;
  } catch {
    return null;
  }
}
