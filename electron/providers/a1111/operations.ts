import { type GenerateRequest, type OperationCapabilities, operationOf } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { ProviderConfig, SourceImage, WorkInputs } from '../types.js';

/** A1111's own default denoising strength, used when the request leaves strength out. */
export const A1111_DEFAULT_STRENGTH = 0.75;
/** Inpaint settings sent with a mask: start from the original, repaint only the masked area at full resolution. */
export const A1111_INPAINT = {
  inpainting_fill: 1,
  inpaint_full_res: true,
  mask_blur: 4,
  inpainting_mask_invert: 0,
} as const;
/** Built into every A1111 (no model file): the upscaler when the server's list is unknown or has no ESRGAN. */
export const A1111_FALLBACK_UPSCALER = 'Lanczos';

/** Every operation runs on A1111; the upscalers are the server's, as last listed by a connection test. */
export function a1111Operations(config: ProviderConfig): OperationCapabilities {
  const upscalers = config.upscalers?.filter((name) => name !== 'None');
  return {
    img2img: { supported: true },
    inpaint: { supported: true },
    upscale: { supported: true, ...(upscalers === undefined ? {} : { upscalers }) },
  };
}

/** The best upscaler the server listed: a Real-ESRGAN photo model, then any ESRGAN, else Lanczos. */
export function chooseUpscaler(listed: readonly string[] | undefined): string {
  const names = listed ?? [];
  const rank = (name: string): number => {
    if (/^R-ESRGAN/i.test(name)) return /anime/i.test(name) ? 1 : 0;
    if (/ESRGAN/i.test(name)) return 2;
    return 3;
  };
  const best = names.filter((name) => rank(name) < 3).sort((a, b) => rank(a) - rank(b))[0];
  return best ?? A1111_FALLBACK_UPSCALER;
}

/**
 * Parts that conflict (a mask without its image…), and a named upscaler the server does not have (when its list is
 * known).
 */
export function validateA1111Operation(request: GenerateRequest, config: ProviderConfig): void {
  const op = operationOf(request);
  if ('error' in op) throw invalid(op.error, op.field);
  const named = request.upscale?.upscaler;
  if (named === undefined) return;
  if (named === 'None')
    throw invalid('"None" does not upscale: choose an upscaler, or leave it out for the best one.', 'upscale');
  const listed = config.upscalers;
  if (listed !== undefined && listed.length > 0 && !listed.includes(named)) {
    throw invalid(
      `This A1111 server has no upscaler called "${named}". It has: ${listed.filter((n) => n !== 'None').join(', ')}.`,
      'upscale',
    );
  }
}

/** The source image (and mask) the worker read for this request; a missing one is Atelier's fault, not the person's. */
export function requireInputs(
  request: GenerateRequest,
  inputs: WorkInputs | undefined,
): { image: SourceImage; mask?: SourceImage } {
  const op = operationOf(request);
  const image = inputs?.image;
  if (image === undefined)
    throw new AppError('internal', 'The source image was not read before the job started; nothing was sent.', {
      details: { phase: 'before_accept' },
    });
  if ('operation' in op && op.operation === 'inpaint') {
    if (inputs?.mask === undefined)
      throw new AppError('internal', 'The mask was not read before the job started; nothing was sent.', {
        details: { phase: 'before_accept' },
      });
    return { image, mask: inputs.mask };
  }
  return { image };
}

/**
 * The fields POST /sdapi/v1/img2img adds to txt2img's; images go as bare base64 of their own bytes
 * (docs/provider-protocols.md §2.4).
 */
export function img2imgFields(
  request: GenerateRequest,
  image: SourceImage,
  mask?: SourceImage,
): Record<string, unknown> {
  return {
    init_images: [toBase64(image.data)],
    denoising_strength: request.inputImage?.strength ?? A1111_DEFAULT_STRENGTH,
    resize_mode: 0,
    include_init_images: false,
    ...(mask === undefined ? {} : { mask: toBase64(mask.data), ...A1111_INPAINT }),
  };
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function invalid(message: string, field: string): AppError {
  return new AppError('invalid_request', message, { details: { field } });
}
