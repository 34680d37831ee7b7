import sharp from 'sharp';
import { AppError } from '../../../shared/errors.js';
import { type CallScope, malformedError } from '../http/errors.js';
import type { GeneratedImage, ProviderContext, SourceImage } from '../types.js';
import { invalid } from './build-graph.js';

/** The image (and mask) a job works from, as the worker read them; a mask must be the image's size. */
export function sourceOf(context: ProviderContext, op: string): { image: SourceImage; mask?: SourceImage } {
  const image = context.inputs?.image;
  if (image === undefined)
    throw new AppError(
      'internal',
      `The source image for this ${op === 'upscale' ? 'upscale' : 'job'} was not read, so ComfyUI was not called.`,
      { retryable: false },
    );
  if (op !== 'inpaint') return { image };
  const mask = context.inputs?.mask;
  if (mask === undefined)
    throw new AppError('internal', 'The mask for this edit was not read, so ComfyUI was not called.', {
      retryable: false,
    });
  if (mask.width !== image.width || mask.height !== image.height)
    throw invalid(
      `The mask is ${mask.width}×${mask.height} but the image is ${image.width}×${image.height}: paint the mask ` +
        `again on this image.`,
      'mask',
    );
  return { image, mask };
}

/** The size LoadImage sees: it applies EXIF orientation (exif_transpose), so a camera JPEG on its side swaps sides. */
export async function loadedSize(image: SourceImage): Promise<{ width: number; height: number }> {
  const orientation = await sharp(image.data)
    .metadata()
    .then((m) => m.orientation ?? 1)
    .catch(() => 1);
  return orientation >= 5 ? { width: image.height, height: image.width } : { width: image.width, height: image.height };
}

/**
 * The server's answer is untrusted: an upscale is exactly source × factor; from an image, VAEEncode may trim the
 * size down to a multiple of 8 but never grows it.
 */
export function checkSizes(
  images: GeneratedImage[],
  source: { width: number; height: number },
  factor: number | undefined,
  scope: CallScope,
): void {
  for (const image of images) {
    const { width, height } = image;
    if (width === undefined || height === undefined) continue;
    const ok =
      factor !== undefined
        ? width === source.width * factor && height === source.height * factor
        : width <= source.width && height <= source.height && width > source.width - 8 && height > source.height - 8;
    if (!ok) {
      const wanted =
        factor !== undefined
          ? `${source.width * factor}×${source.height * factor}`
          : `${source.width}×${source.height}`;
      throw malformedError(scope, `a ${width}×${height} image where ${wanted} was expected`, { width, height });
    }
  }
}
