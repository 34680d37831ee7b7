import sharp from 'sharp';
import type { GenerateRequest } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import type { NewImage } from '../db/types.js';
import type { EncodedImage } from '../providers/types.js';
import type { WriteOptions } from './atomic-write.js';
import { writeContentAddressed } from './content-store.js';
import { LIBRARY_DIR } from './media-paths.js';
import { embedSettings } from './png/embed-settings.js';
import { writeThumbnailAndHash } from './thumbnail.js';
import type { Seed } from '../../shared/seed.js';

export interface StoreImageInput extends WriteOptions {
  dataDir: string;
  /** The image row id (the caller makes it). */
  id: string;
  index: number;
  image: EncodedImage;
  jobId: string;
  request: GenerateRequest;
  provider: string;
  model?: string;
  seed?: Seed;
  batchIndex?: number;
  revisedPrompt?: string;
  createdAt: number;
  appVersion: string;
}

async function decodeInfo(data: Uint8Array): Promise<{ format: string; width: number; height: number }> {
  try {
    const meta = await sharp(data).metadata();
    if (meta.width === undefined || meta.height === undefined || meta.format === undefined) throw new Error('no size');
    return { format: meta.format, width: meta.width, height: meta.height };
  } catch (error) {
    throw new AppError('provider_error', 'The provider returned data that is not a readable image.', {
      retryable: false,
      details: { bytes: data.length },
      cause: error,
    });
  }
}

/**
 * Stores one provider image end to end: settings embedded, original and thumbnail written atomically, and the
 * row the store records returned. Only after this resolves may the caller commit the row (durability order, step 4).
 */
export async function storeProviderImage(input: StoreImageInput): Promise<NewImage> {
  const info = await decodeInfo(input.image.data);
  // JPEG/WebP outputs are converted to PNG (orientation baked in) so every stored original carries its settings.
  const png =
    info.format === 'png'
      ? input.image.data
      : new Uint8Array(await sharp(input.image.data).rotate().png({ compressionLevel: 6 }).toBuffer());
  const size = info.format === 'png' ? info : await decodeInfo(png);
  const embedded = embedSettings(png, {
    request: input.request,
    jobId: input.jobId,
    index: input.index,
    provider: input.provider,
    width: size.width,
    height: size.height,
    createdAt: input.createdAt,
    appVersion: input.appVersion,
    ...(input.model !== undefined ? { model: input.model } : {}),
    ...(input.seed !== undefined ? { seed: input.seed } : {}),
    ...(input.batchIndex !== undefined ? { batchIndex: input.batchIndex, batchSize: input.request.count } : {}),
    ...(input.revisedPrompt !== undefined ? { revisedPrompt: input.revisedPrompt } : {}),
  });
  const writeOptions = input.fs === undefined ? {} : { fs: input.fs };
  // Independent files: encode the thumbnail while the original is written and fsynced. Both settle before we
  // answer, so no temp file is still being written when a failure is reported.
  const [originalResult, thumbResult] = await Promise.allSettled([
    writeContentAddressed(input.dataDir, LIBRARY_DIR, embedded, 'png', writeOptions),
    writeThumbnailAndHash(input.dataDir, png, writeOptions),
  ]);
  if (originalResult.status === 'rejected') throw originalResult.reason;
  if (thumbResult.status === 'rejected') throw thumbResult.reason;
  const original = originalResult.value;
  const { thumb, phash } = thumbResult.value;
  return {
    id: input.id,
    index: input.index,
    path: original.path,
    sha256: original.sha256,
    bytes: original.bytes,
    width: size.width,
    height: size.height,
    mime: 'image/png',
    thumbPath: thumb.path,
    ...(input.seed === undefined ? {} : { seed: input.seed }),
    ...(input.batchIndex === undefined ? {} : { batchIndex: input.batchIndex }),
    ...(phash === null ? {} : { phash }),
  };
}
