import { type GenerateRequest, operationOf } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { seedToBigInt } from '../../../shared/seed.js';
import { ERASE_NEEDS_MASK, NO_IMG2IMG_CORE, STABILITY_UPSCALERS, endpointOf } from './models.js';

const PROMPT_LIMIT = 10_000;
/** Stability's seeds run from 0 to 4294967294 (docs/provider-protocols.md §5). */
export const MAX_STABILITY_SEED = 4_294_967_294n;

function invalid(message: string, field: string): AppError {
  return new AppError('invalid_request', message, { details: { field } });
}

/** Everything Stability would reject or silently ignore, caught before a request (and a bill) happens. */
export function validateStabilityRequest(request: GenerateRequest, model: string): void {
  const op = operationOf(request);
  if ('error' in op) throw invalid(op.error, op.field);
  const endpoint = endpointOf(model);
  if (endpoint === undefined) {
    throw invalid(
      `Stability AI has no model "${model.slice(0, 60)}": use core, ultra, sd3.5-large, sd3.5-large-turbo, ` +
        `sd3.5-medium or erase.`,
      'model',
    );
  }
  if (op.operation === 'img2img' && (endpoint === 'core' || endpoint === 'erase'))
    throw invalid(endpoint === 'core' ? NO_IMG2IMG_CORE : ERASE_NEEDS_MASK, 'inputImage');
  if ((op.operation === 'generate' || op.operation === 'variation') && endpoint === 'erase')
    throw invalid(ERASE_NEEDS_MASK, 'model');
  if (op.operation === 'upscale') validateUpscale(request);
  if (request.prompt.length > PROMPT_LIMIT)
    throw invalid(
      `Stability AI takes prompts of at most ${PROMPT_LIMIT.toLocaleString('en-US')} characters.`,
      'prompt',
    );
  if ((request.negativePrompt?.length ?? 0) > PROMPT_LIMIT)
    throw invalid('Stability AI takes negative prompts of at most 10,000 characters.', 'negativePrompt');
  if (request.count > 1) throw invalid('Stability AI makes one image per request: set the count to 1.', 'count');
  if (request.seed !== undefined && seedToBigInt(request.seed) > MAX_STABILITY_SEED)
    throw invalid(`Stability AI takes seeds from 0 to ${MAX_STABILITY_SEED.toString()}.`, 'seed');
  validateSettings(request, endpoint === 'sd3' && (op.operation === 'generate' || op.operation === 'img2img'));
}

function validateUpscale(request: GenerateRequest): void {
  const { factor, upscaler } = request.upscale!;
  if (upscaler !== undefined && !(STABILITY_UPSCALERS as readonly string[]).includes(upscaler))
    throw invalid(`Stability AI's upscalers are ${STABILITY_UPSCALERS.join(', ')}.`, 'upscale');
  if (factor !== 4 && (upscaler === undefined || upscaler === 'fast')) {
    throw invalid(
      'Stability AI upscales by exactly 4 (the fast upscaler). For another size pick the conservative or creative ' +
        'upscaler, which choose the size themselves (up to 4 megapixels).',
      'upscale',
    );
  }
}

function validateSettings(request: GenerateRequest, takesGuidance: boolean): void {
  if (request.guidance !== undefined) {
    if (!takesGuidance)
      throw invalid(
        'Stability AI takes a guidance scale (cfg_scale) only for sd3.5 text to image and image to image.',
        'guidance',
      );
    if (request.guidance < 1 || request.guidance > 10)
      throw invalid('Stability AI takes a guidance scale from 1 to 10.', 'guidance');
  }
  if (request.steps !== undefined) throw invalid('Stability AI does not take a step count.', 'steps');
  if (request.sampler !== undefined) throw invalid('Stability AI does not take a sampler.', 'sampler');
  if (request.quality !== undefined) throw invalid('Stability AI does not take a quality setting.', 'quality');
  if (request.background !== undefined) throw invalid('Stability AI does not take a background setting.', 'background');
  if (request.outputFormat !== undefined && request.outputFormat !== 'png')
    throw invalid('Atelier asks Stability AI for PNG only.', 'outputFormat');
  if (request.partialImages !== undefined && request.partialImages > 0)
    throw invalid('Stability AI does not stream partial previews.', 'partialImages');
}
