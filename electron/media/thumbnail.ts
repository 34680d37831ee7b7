import sharp from 'sharp';
import { writeContentAddressed, type StoredFile } from './content-store.js';
import type { WriteOptions } from './atomic-write.js';
import { THUMBS_DIR } from './media-paths.js';

export const THUMB_LONG_EDGE = 384;

/**
 * WebP thumbnail, long edge 384 px, never upscaled. sharp works on its own thread pool: the event loop stays free.
 * Effort 2 halves encode time against the default 4 for a barely larger file: it sits on the path to `jobs.changed`.
 */
export async function makeThumbnail(image: Uint8Array): Promise<Buffer> {
  return sharp(image)
    .rotate()
    .resize({ width: THUMB_LONG_EDGE, height: THUMB_LONG_EDGE, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 82, effort: 2 })
    .toBuffer();
}

/** Makes and stores the thumbnail under thumbs/ab/cdef….webp (named by the thumbnail's own sha256). */
export async function writeThumbnail(dataDir: string, image: Uint8Array, options: WriteOptions = {}): Promise<StoredFile> {
  const thumb = await makeThumbnail(image);
  return writeContentAddressed(dataDir, THUMBS_DIR, thumb, 'webp', options);
}
