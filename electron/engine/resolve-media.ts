import type { JobStore } from '../db/types.js';
import { resolveInsideDataDir } from '../base/paths.js';
import type { createJobMedia } from './job-media.js';
import type { MediaFile, MediaKind } from './types.js';

/** An image's file for the hosts: a preview, a thumbnail or image in the data dir, or a linked original. */
export function mediaResolver(
  dataDir: string,
  store: JobStore,
  media: ReturnType<typeof createJobMedia>,
): (kind: MediaKind, imageId: string) => MediaFile | null {
  return (kind, imageId) => {
    if (kind === 'preview') return media.previews.resolvePreview(imageId);
    const image = store.image(imageId);
    if (image === null) return null;
    if (kind === 'image' && image.linked) {
      const original = store.imports.original(imageId);
      return original === null
        ? null
        : { path: original.path, mime: image.mime, root: original.root, sha256: image.sha256 };
    }
    const rel = kind === 'image' ? image.path : image.thumbPath;
    if (rel === null) return null;
    const path = resolveInsideDataDir(dataDir, rel);
    if (path === null) return null;
    return { path, mime: kind === 'image' ? image.mime : 'image/webp' };
  };
}
