import {
  type GenerateRequest,
  type Operation,
  type ProviderCapabilities,
  operationOf,
} from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';

export const BUILTIN_MODEL = 'atelier-builtin-1';
export const DEFAULT_STEPS = 20;
export const DEFAULT_GUIDANCE = 7;
/** How far image-to-image moves from the source when the request does not say (A1111's default too). */
export const DEFAULT_STRENGTH = 0.75;
/** Its one upscaler. */
export const LANCZOS = 'lanczos';

export const BUILTIN_CAPABILITIES: ProviderCapabilities = {
  sizes: {
    min: 64,
    max: 2048,
    multipleOf: 8,
    presets: [
      [512, 512],
      [768, 512],
      [512, 768],
      [1024, 1024],
      [1536, 1024],
      [1024, 1536],
      [2048, 2048],
    ],
  },
  maxCount: 10,
  steps: { min: 1, max: 150, default: DEFAULT_STEPS },
  guidance: { min: 0, max: 30, default: DEFAULT_GUIDANCE },
  seed: true,
  negativePrompt: true,
  maxPartialImages: 3,
  outputFormats: ['png'],
  operations: {
    img2img: {
      supported: true,
      reason:
        `Blends the picture toward a new scene by strength (${DEFAULT_STRENGTH} unless set): low keeps its ` +
        `composition, high leaves little of it.`,
    },
    inpaint: { supported: true, reason: 'Repaints only the white area of the mask; the rest stays exactly as it was.' },
    upscale: {
      supported: true,
      reason: 'Lanczos resampling, ×2 or ×4 (up to 8192 pixels on a side).',
      upscalers: [LANCZOS],
    },
  },
};

function invalid(message: string, field: string): AppError {
  return new AppError('invalid_request', message, { retryable: false, details: { fields: { [field]: message } } });
}

/** The request's operation; parts that conflict (an upscale with a mask…) are refused with the contract's message. */
export function builtinOperation(request: GenerateRequest): Operation {
  const op = operationOf(request);
  if ('error' in op) throw invalid(op.error, op.field);
  return op.operation;
}

/** Checks a request against what the built-in generator can do; throws AppError('invalid_request'). */
export function validateBuiltinRequest(request: GenerateRequest): void {
  const { sizes } = BUILTIN_CAPABILITIES;
  const op = builtinOperation(request);
  if (request.upscale?.upscaler !== undefined && request.upscale.upscaler.toLowerCase() !== LANCZOS) {
    throw invalid(
      `The built-in generator upscales with Lanczos only; it has no upscaler "${request.upscale.upscaler}".`,
      'upscale',
    );
  }
  if (request.scheduler !== undefined)
    throw invalid('The built-in generator has no schedulers to choose from.', 'scheduler');
  // From an image the result takes the source's size, so the request's width and height do not apply.
  const sized = op === 'generate' || op === 'variation';
  const dimensions = [
    ['width', request.width],
    ['height', request.height],
  ] as const;
  for (const [field, value] of sized ? dimensions : []) {
    if (value < sizes.min || value > sizes.max) {
      throw invalid(
        `The built-in generator renders from ${sizes.min}×${sizes.min} up to ${sizes.max}×${sizes.max}; ${field} ` +
          `${value} is outside that.`,
        field,
      );
    }
    if (value % sizes.multipleOf !== 0) {
      throw invalid(
        `The built-in generator needs width and height in multiples of ${sizes.multipleOf}; ${field} ${value} is not.`,
        field,
      );
    }
  }
  if (request.count > BUILTIN_CAPABILITIES.maxCount) {
    throw invalid(`The built-in generator makes at most ${BUILTIN_CAPABILITIES.maxCount} images per request.`, 'count');
  }
  if (request.model !== undefined && request.model !== BUILTIN_MODEL) {
    throw invalid(`The built-in generator has one model, ${BUILTIN_MODEL}.`, 'model');
  }
  if (request.outputFormat !== undefined && request.outputFormat !== 'png') {
    throw invalid('The built-in generator makes PNG images only.', 'outputFormat');
  }
  if (request.sampler !== undefined) throw invalid('The built-in generator has no samplers to choose from.', 'sampler');
  if (request.quality !== undefined && request.quality !== 'auto') {
    throw invalid('The built-in generator has no quality setting.', 'quality');
  }
  if (request.background === 'transparent') {
    throw invalid('The built-in generator cannot make transparent backgrounds.', 'background');
  }
  if ((request.partialImages ?? 0) > BUILTIN_CAPABILITIES.maxPartialImages) {
    throw invalid(
      `The built-in generator shows at most ${BUILTIN_CAPABILITIES.maxPartialImages} previews.`,
      'partialImages',
    );
  }
}
