import sharp from 'sharp';
import type { CallScope } from '../http/errors.js';
import { toImage } from '../http/image.js';
import type { EncodedImage } from '../types.js';

/** The size of what the job will output, when known before it runs. */
export interface OutputSize {
  width: number;
  height: number;
}

/**
 * A preview frame as Atelier shows it. ComfyUI sends JPEGs scaled to 512 on the long side whatever the output size
 * (server.py send_image_with_metadata, ImageOps.contain), so a 64×64 job previews at 512×512: a preview larger than
 * the output is scaled down to fit it, and every preview carries its real size.
 */
export async function scaledPreview(
  bytes: Uint8Array,
  output: OutputSize | undefined,
  scope: CallScope,
): Promise<EncodedImage> {
  const image = toImage(bytes, scope, 'a preview frame');
  const meta = await sharp(bytes).metadata();
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (width === undefined || height === undefined) return image;
  if (output === undefined || (width <= output.width && height <= output.height)) return { ...image, width, height };
  const data = await sharp(bytes)
    .autoOrient()
    .resize({ width: output.width, height: output.height, fit: 'inside' })
    .jpeg({ quality: 85 })
    .toBuffer({ resolveWithObject: true });
  return { data: data.data, mime: 'image/jpeg', width: data.info.width, height: data.info.height };
}
