import sharp from 'sharp';
import { AppError } from '../../../shared/errors.js';
import type { FormPart } from '../http/multipart.js';
import type { SourceImage, WorkInputs } from '../types.js';

/** The types Stability reads as an upload (docs/hosted-protocols.md §1.5); anything else is sent as PNG. */
const UPLOAD_MIMES: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** The job's source image (or mask), read by the worker; missing means a bug upstream, and nothing was sent. */
export function required(inputs: WorkInputs | undefined, which: 'image' | 'mask'): SourceImage {
  const image = inputs?.[which];
  if (image === undefined) {
    throw new AppError(
      'internal',
      `The ${which === 'image' ? 'source image' : 'mask'} was not read before the job started; nothing was sent.`,
      { details: { phase: 'before_accept' } },
    );
  }
  return image;
}

/** A file part with the original's own bytes when Stability reads them; a GIF or other becomes the same pixels as PNG. */
export async function filePart(name: 'image' | 'mask', image: SourceImage): Promise<FormPart> {
  const ext = UPLOAD_MIMES[image.mime];
  if (ext !== undefined) return { name, filename: `${name}.${ext}`, contentType: image.mime, data: image.data };
  try {
    const data = await sharp(image.data).png().toBuffer();
    return { name, filename: `${name}.png`, contentType: 'image/png', data };
  } catch (error) {
    throw new AppError(
      'invalid_request',
      `The ${name === 'image' ? 'source image' : 'mask'} could not be read as an image, so nothing was sent to ` +
        `Stability AI.`,
      {
        details: {
          field: name === 'image' ? 'inputImage' : 'mask',
          phase: 'before_accept',
          cause: error instanceof Error ? error.message : String(error),
        },
      },
    );
  }
}
