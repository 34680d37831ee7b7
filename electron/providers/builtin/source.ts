import sharp from 'sharp';
import { AppError } from '../../../shared/errors.js';
import type { SourceImage, WorkInputs } from '../types.js';

/** The source of an image-to-image run or a masked edit, decoded to RGB (and the mask to one 8-bit plane). */
export interface DecodedSource {
  width: number;
  height: number;
  pixels: Uint8Array;
  /** width × height bytes: 255 repaints, 0 keeps. */
  mask?: Uint8Array;
  /** Set when the source was larger than the generator renders and was scaled down to fit. */
  scaledFrom?: { width: number; height: number };
}

function missing(what: string): AppError {
  return new AppError('internal', `The ${what} for this job was not read, so the built-in generator did not start.`, {
    retryable: false,
  });
}

function unreadable(what: string, error: unknown): AppError {
  return new AppError(
    'invalid_request',
    `The built-in generator cannot read the ${what}: ${error instanceof Error ? error.message : String(error)}.`,
    { retryable: false, details: { fields: { inputImage: 'Unreadable image.' } } },
  );
}

/** Decodes with sharp (libvips threads, off the main loop); EXIF orientation applied, transparency over white. */
async function rgb(
  image: SourceImage,
  maxSide: number,
): Promise<{ data: Buffer; width: number; height: number; scaledFrom?: { width: number; height: number } }> {
  let pipeline = sharp(image.data, { failOn: 'error' })
    .rotate()
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb');
  const meta = await sharp(image.data).rotate().metadata();
  const [w, h] = (meta.orientation ?? 1) >= 5 ? [meta.height, meta.width] : [meta.width, meta.height];
  const tooBig = Math.max(w, h) > maxSide;
  if (tooBig) pipeline = pipeline.resize(maxSide, maxSide, { fit: 'inside', kernel: 'lanczos3' });
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`decoded to ${info.channels} channels`);
  return { data, width: info.width, height: info.height, ...(tooBig ? { scaledFrom: { width: w, height: h } } : {}) };
}

/** The source (and for an edit, the mask, brought to the source's size) as the render worker blends them. */
export async function decodeSource(
  inputs: WorkInputs | undefined,
  withMask: boolean,
  maxSide: number,
): Promise<DecodedSource> {
  if (inputs?.image === undefined) throw missing('source image');
  let image;
  try {
    image = await rgb(inputs.image, maxSide);
  } catch (error) {
    throw unreadable('source image', error);
  }
  const source: DecodedSource = {
    width: image.width,
    height: image.height,
    pixels: new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength),
    ...(image.scaledFrom === undefined ? {} : { scaledFrom: image.scaledFrom }),
  };
  if (!withMask) return source;
  if (inputs.mask === undefined) throw missing('mask');
  try {
    // Red is the mask's value (a grayscale PNG has it in every channel), as ComfyUI's LoadImageMask "red" reads it.
    const plane = await sharp(inputs.mask.data, { failOn: 'error' })
      .removeAlpha()
      .extractChannel(0)
      .resize(image.width, image.height, { fit: 'fill', kernel: 'nearest' })
      .raw()
      .toBuffer();
    source.mask = new Uint8Array(plane.buffer, plane.byteOffset, plane.byteLength);
  } catch (error) {
    throw unreadable('mask', error);
  }
  return source;
}

/** The source (and mask) at a preview's size, for the coarse previews of a run from an image. */
export async function sourceAt(source: DecodedSource, width: number, height: number): Promise<DecodedSource> {
  const pixels = await sharp(source.pixels, { raw: { width: source.width, height: source.height, channels: 3 } })
    .resize(width, height, { fit: 'fill' })
    .raw()
    .toBuffer();
  const mask =
    source.mask === undefined
      ? undefined
      : await sharp(source.mask, { raw: { width: source.width, height: source.height, channels: 1 } })
          .resize(width, height, { fit: 'fill', kernel: 'nearest' })
          .extractChannel(0)
          .raw()
          .toBuffer();
  return { width, height, pixels, ...(mask === undefined ? {} : { mask }) };
}
