/** Where an image's own bytes are, as a guarded read target: a linked original in its imported folder, else the data dir. */
import type { JobStore } from '../../db/types.js';
import { resolveInsideDataDir } from '../../base/paths.js';
import type { ReadTarget } from './original-reader.js';

/** Larger files are not images any of the tools Atelier reads write: listed, never read into memory. */
export const MAX_ORIGINAL_BYTES = 512 * 1024 * 1024;

export interface ImageSource extends ReadTarget {
  mime: string;
  width: number;
  height: number;
  /** An imported original Atelier only links to (never its own file). */
  linked: boolean;
}

export function imageSourceOf(
  dataDir: string,
  store: Pick<JobStore, 'image' | 'imports'>,
  imageId: string,
): ImageSource | null {
  const image = store.image(imageId);
  if (image === null) return null;
  const known = { maxBytes: MAX_ORIGINAL_BYTES, mime: image.mime, width: image.width, height: image.height };
  if (image.linked) {
    const original = store.imports.original(imageId);
    // Not Atelier's file: only the bytes it imported may go on (Atelier's own are content-addressed and its own to keep).
    return original === null
      ? null
      : { ...known, sha256: image.sha256, path: original.path, root: original.root, linked: true };
  }
  const path = resolveInsideDataDir(dataDir, image.path);
  return path === null ? null : { ...known, path, root: dataDir, rootMayBeLink: true, linked: false };
}
