import sharp from 'sharp';
import { AppError } from '../../../shared/errors.js';
import type { WorkInputs } from '../types.js';

/** The formats Replicate's image models read ("Must be jpeg, png, gif, or webp": flux-kontext-pro's input_image). */
const READABLE_MIMES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The source image's bytes, as the model reads them: its own when it can, else the same pixels as PNG (an AVIF). */
export async function sourceImageData(inputs: WorkInputs | undefined): Promise<{ data: Uint8Array; mime: string }> {
  const image = inputs?.image;
  if (image === undefined) {
    throw new AppError('internal', 'The source image was not read before the job started; nothing was sent.', {
      details: { phase: 'before_accept' },
    });
  }
  if (READABLE_MIMES.has(image.mime)) return { data: image.data, mime: image.mime };
  try {
    return { data: await sharp(image.data).png().toBuffer(), mime: 'image/png' };
  } catch {
    throw new AppError(
      'invalid_request',
      'The source image could not be read as an image, so nothing was sent to Replicate.',
      {
        details: { field: 'inputImage', phase: 'before_accept' },
      },
    );
  }
}

/** Bytes as a data URI, the way Replicate takes a file inline (docs/hosted-protocols.md §1.4). */
export function toDataUri(source: { data: Uint8Array; mime: string }): string {
  return `data:${source.mime};base64,${Buffer.from(source.data).toString('base64')}`;
}
