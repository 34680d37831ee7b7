import sharp from 'sharp';
import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { SourceImage, WorkInputs } from '../types.js';
import { aspectRatioFor, imageSizeFor, takesImageSize } from './models.js';

/** The MIME types Gemini reads as inlineData; anything else is sent as PNG. */
const INLINE_MIMES = new Set(['image/png', 'image/jpeg', 'image/webp']);

export interface GeminiBody {
  contents: { role: 'user'; parts: Record<string, unknown>[] }[];
  generationConfig: {
    responseModalities: ['TEXT', 'IMAGE'];
    imageConfig: { aspectRatio: string; imageSize?: string };
  };
}

/**
 * The generateContent body (docs/hosted-protocols.md §1.1): the prompt as a text part, the job's source image as an
 * inlineData part beside it for an edit, and the aspect ratio (and, for Gemini 3, the size) from width and height.
 */
export async function generateContentBody(
  request: GenerateRequest,
  model: string,
  inputs: WorkInputs | undefined,
): Promise<GeminiBody> {
  const parts: Record<string, unknown>[] = [{ text: request.prompt }];
  if (request.inputImage !== undefined) {
    const image = inputs?.image;
    if (image === undefined) {
      throw new AppError('internal', 'The source image was not read before the job started; nothing was sent.', {
        details: { phase: 'before_accept' },
      });
    }
    parts.push(await inlineDataPart(image, 'inputImage'));
  }
  // References follow the image being edited, in the order the person chose them.
  const references = inputs?.references ?? [];
  if ((request.referenceImages?.length ?? 0) !== references.length) {
    throw new AppError('internal', 'The reference images were not read before the job started; nothing was sent.', {
      details: { phase: 'before_accept' },
    });
  }
  for (const reference of references) parts.push(await inlineDataPart(reference, 'referenceImages'));
  const imageConfig: GeminiBody['generationConfig']['imageConfig'] = {
    aspectRatio: aspectRatioFor(request.width, request.height),
  };
  if (takesImageSize(model)) imageConfig.imageSize = imageSizeFor(request.width, request.height);
  return {
    contents: [{ role: 'user', parts }],
    generationConfig: { responseModalities: ['TEXT', 'IMAGE'], imageConfig },
  };
}

async function inlineDataPart(image: SourceImage, field: string): Promise<Record<string, unknown>> {
  const inline = await inlinable(image, field);
  return { inlineData: { mimeType: inline.mime, data: Buffer.from(inline.data).toString('base64') } };
}

/** The original's own bytes when Gemini reads them; a GIF or another format becomes the same pixels as PNG. */
async function inlinable(image: SourceImage, field: string): Promise<{ data: Uint8Array; mime: string }> {
  if (INLINE_MIMES.has(image.mime)) return { data: image.data, mime: image.mime };
  try {
    return { data: await sharp(image.data).png().toBuffer(), mime: 'image/png' };
  } catch (error) {
    throw new AppError(
      'invalid_request',
      `The ${field === 'inputImage' ? 'source' : 'reference'} image could not be read as an image, so nothing was sent to Google Gemini.`,
      {
        details: {
          field,
          phase: 'before_accept',
          cause: error instanceof Error ? error.message : String(error),
        },
      },
    );
  }
}
