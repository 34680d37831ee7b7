import sharp from 'sharp';
import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { FormPart } from '../http/multipart.js';
import type { SourceImage, WorkInputs } from '../types.js';
import { type OpenAIFamily, familyOf, generationBody, isGptImage } from './models.js';

const EXTENSION: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };
/** DALL·E 2 takes one square PNG under 4 MB (docs/provider-protocols.md §1.4). */
const DALLE2_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The POST /v1/images/edits form (docs/provider-protocols.md §1.4, §7.5): the generation's own fields, every scalar as
 * a string part, then the source image's own bytes and, for a masked edit, the mask as OpenAI reads it.
 */
export async function editForm(
  request: GenerateRequest,
  model: string,
  inputs: WorkInputs | undefined,
): Promise<FormPart[]> {
  const family = familyOf(model);
  const image = inputs?.image;
  if (image === undefined) throw notRead('The source image');
  const masked = request.mask !== undefined;
  if (masked && inputs?.mask === undefined) throw notRead('The mask');
  const upload = await decoding('The source image', 'inputImage', () => uploadable(image, family));
  const parts: FormPart[] = Object.entries(generationBody(request, model)).map(([name, value]) => ({
    name,
    value: String(value),
  }));
  // The SDKs name array entries image[]; DALL·E 2 takes exactly one image, under the plain name.
  parts.push({
    name: isGptImage(family) ? 'image[]' : 'image',
    filename: `image.${EXTENSION[upload.mime] ?? 'png'}`,
    contentType: upload.mime,
    data: upload.data,
  });
  if (masked)
    parts.push({
      name: 'mask',
      filename: 'mask.png',
      contentType: 'image/png',
      data: await decoding('The mask', 'mask', () => openAIMask(inputs!.mask!, image)),
    });
  return parts;
}

/**
 * Atelier's mask is 8-bit gray, white = repaint; OpenAI's is a PNG whose fully transparent pixels are repainted.
 * So alpha = 255 - gray, on black, at the image's size.
 */
export async function openAIMask(mask: SourceImage, image: SourceImage): Promise<Buffer> {
  const { data, info } = await sharp(mask.data)
    .greyscale()
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.width !== image.width || info.height !== image.height) {
    throw new AppError(
      'invalid_request',
      `The mask is ${info.width}x${info.height} but its image is ${image.width}x${image.height}: OpenAI needs them ` +
        `the same size. Paint the mask again.`,
      {
        details: { field: 'mask' },
      },
    );
  }
  const rgba = Buffer.alloc(info.width * info.height * 4);
  for (let i = 0; i < data.length; i += 1) rgba[i * 4 + 3] = 255 - data[i]!;
  return sharp(rgba, { raw: { width: info.width, height: info.height, channels: 4 } })
    .png()
    .toBuffer();
}

/** GPT image models take the original bytes as they are (PNG, JPEG, WebP); DALL·E 2 needs a square PNG. */
async function uploadable(image: SourceImage, family: OpenAIFamily): Promise<{ data: Uint8Array; mime: string }> {
  if (isGptImage(family)) {
    if (EXTENSION[image.mime] !== undefined) return { data: image.data, mime: image.mime };
    // A GIF or another format the edits endpoint refuses: the same pixels as PNG.
    return { data: await sharp(image.data).png().toBuffer(), mime: 'image/png' };
  }
  if (image.width !== image.height) {
    throw new AppError(
      'invalid_request',
      `DALL·E 2 edits square images only; this one is ${image.width}x${image.height}. Use a GPT image model.`,
      { details: { field: 'inputImage' } },
    );
  }
  const data = image.mime === 'image/png' ? image.data : await sharp(image.data).png().toBuffer();
  if (data.byteLength >= DALLE2_MAX_BYTES) {
    throw new AppError(
      'invalid_request',
      'DALL·E 2 edits PNG images under 4 MB only; this one is larger. Use a GPT image model.',
      { details: { field: 'inputImage' } },
    );
  }
  return { data, mime: 'image/png' };
}

/** A file sharp cannot decode is named as such, before anything is sent (never taken for a dropped connection). */
async function decoding<T>(what: string, field: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('invalid_request', `${what} could not be read as an image, so nothing was sent to OpenAI.`, {
      details: { field, phase: 'before_accept', cause: error instanceof Error ? error.message : String(error) },
    });
  }
}

function notRead(what: string): AppError {
  return new AppError('internal', `${what} was not read before the job started; nothing was sent.`, {
    details: { phase: 'before_accept' },
  });
}
