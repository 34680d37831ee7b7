import sharp from 'sharp';
import { writeContentAddressed, type StoredFile } from './content-store.js';
import type { WriteOptions } from './atomic-write.js';
import { THUMBS_DIR } from './media-paths.js';
import { perceptualHash } from './perceptual-hash.js';

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
export async function writeThumbnail(
  dataDir: string,
  image: Uint8Array,
  options: WriteOptions = {},
): Promise<StoredFile> {
  const thumb = await makeThumbnail(image);
  return writeContentAddressed(dataDir, THUMBS_DIR, thumb, 'webp', options);
}

/**
 * The thumbnail and the image's perceptual hash, made from the thumbnail's own pixels: every image is hashed from
 * the same kind of input (a generated one, an imported one, an old one filled in later from its stored thumbnail),
 * and decoding 384 px costs far less than the original. A hash that cannot be made is null (filled in later).
 */
export async function writeThumbnailAndHash(
  dataDir: string,
  image: Uint8Array,
  options: WriteOptions = {},
): Promise<{ thumb: StoredFile; phash: string | null }> {
  const bytes = await makeThumbnail(image);
  const [thumb, phash] = await Promise.all([
    writeContentAddressed(dataDir, THUMBS_DIR, bytes, 'webp', options),
    perceptualHash(bytes).catch(() => null),
  ]);
  return { thumb, phash };
}
