import sharp from 'sharp';
import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { ProviderHooks } from '../skeleton/run-job.js';
import type { GeneratedImage, ProviderContext, SourceImage } from '../types.js';
import { BUILTIN_MODEL } from './capabilities.js';
import { cancelledError } from './worker-pool.js';

/** The longest side an upscale may produce (a 2048² source ×4); beyond it the PNG alone would pass 200 MB. */
export const MAX_UPSCALE_SIDE = 8192;

/** Lanczos (sharp's lanczos3, on libvips threads) to exactly source × factor, alpha kept; same input, same bytes. */
export async function upscaleImage(image: SourceImage, factor: 2 | 4): Promise<GeneratedImage> {
  let meta;
  try {
    meta = await sharp(image.data, { failOn: 'error' }).rotate().metadata();
  } catch (error) {
    throw new AppError(
      'invalid_request',
      `The built-in generator cannot read the image to upscale: ${(error as Error).message}.`,
      { retryable: false, details: { fields: { upscale: 'Unreadable image.' } } },
    );
  }
  const [w, h] = (meta.orientation ?? 1) >= 5 ? [meta.height, meta.width] : [meta.width, meta.height];
  const width = w * factor;
  const height = h * factor;
  if (Math.max(width, height) > MAX_UPSCALE_SIDE) {
    throw new AppError(
      'invalid_request',
      `Upscaling this ${w}×${h} image ×${factor} would make ${width}×${height}; the built-in generator goes up to ` +
        `${MAX_UPSCALE_SIDE} pixels on a side. Try ×2.`,
      { retryable: false, details: { fields: { upscale: 'Too large.' } } },
    );
  }
  const png = await sharp(image.data)
    .rotate()
    .resize(width, height, { kernel: 'lanczos3', fit: 'fill' })
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
  return { data: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), mime: 'image/png', width, height };
}

/**
 * Upscale on the provider skeleton (skeleton/run-job.ts): no scene, no seed; sharp does the work on its own
 * threads, and a cancel heard meanwhile drops its result.
 */
export function upscaleHooks(
  request: GenerateRequest,
  context: ProviderContext,
): ProviderHooks<SourceImage, SourceImage, GeneratedImage> {
  const factor = request.upscale!.factor;
  return {
    async connect() {
      const image = context.inputs?.image;
      if (image === undefined)
        throw new AppError('internal', 'The image to upscale was not read, so the built-in generator did not start.', {
          retryable: false,
        });
      return image;
    },

    async submit(image) {
      context.onAccepted();
      context.onProgress({ stage: 'upscaling', fraction: 0 });
      return image;
    },

    await: (image) => upscaleImage(image, factor),

    async collect(out) {
      if (context.signal.aborted) throw cancelledError();
      context.trace(
        'render',
        `Upscaled ${out.width! / factor}×${out.height! / factor} to ${out.width}×${out.height} with Lanczos.`,
        { factor },
      );
      context.onProgress({ stage: 'done', fraction: 1 });
      return { images: [out], info: { model: BUILTIN_MODEL, upscaler: 'lanczos', factor } };
    },
  };
}
