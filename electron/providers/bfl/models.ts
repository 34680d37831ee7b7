import { type GenerateRequest, type ProviderCapabilities, operationOf } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';

/** The FLUX.2 image models of docs/hosted-protocols.md §1.2; every one of them edits from input images. */
export const BFL_MODELS = ['flux-2-pro', 'flux-2-max', 'flux-2-flex', 'flux-2-klein-4b', 'flux-2-klein-9b'] as const;
export const DEFAULT_BFL_MODEL = 'flux-2-pro';

/** Only flux-2-flex takes `steps` (1–50) and `guidance` (1.5–10). */
export function takesStepsAndGuidance(model: string): boolean {
  return model === 'flux-2-flex';
}

const MAX_PIXELS = 4 * 1024 * 1024;
const MAX_EDGE = 2048;
const PROMPT_LIMIT = 32_000;

const PRESETS: [number, number][] = [
  [1024, 1024],
  [832, 1248],
  [1248, 832],
  [768, 1344],
  [1344, 768],
  [2048, 2048],
];

/** FLUX.2 takes input_image … input_image_8: the image being edited and its references share them. */
const MAX_IMAGES = 8;

export function bflCapabilities(model: string): ProviderCapabilities {
  return {
    sizes: { min: 64, max: MAX_EDGE, multipleOf: 16, presets: PRESETS },
    maxCount: 1,
    seed: true,
    negativePrompt: false,
    maxPartialImages: 0,
    outputFormats: ['png'],
    maxReferenceImages: MAX_IMAGES,
    operations: {
      img2img: { supported: true },
      inpaint: {
        supported: false,
        reason: `${model} edits from a text instruction and takes no mask: describe the change in the prompt instead.`,
      },
      upscale: { supported: false, reason: 'FLUX.2 cannot upscale. Use AUTOMATIC1111, ComfyUI or the built-in one.' },
    },
  };
}

function invalid(message: string, field: string): AppError {
  return new AppError('invalid_request', message, { details: { field } });
}

/** What BFL would reject (docs/hosted-protocols.md §1.2: multiples of 16, at least 64, at most 4 MP), caught first. */
export function validateBflRequest(request: GenerateRequest, model: string): void {
  const caps = bflCapabilities(model);
  const op = operationOf(request);
  if ('error' in op) throw invalid(op.error, op.field);
  if ('operation' in op && (op.operation === 'inpaint' || op.operation === 'upscale')) {
    const support = caps.operations[op.operation];
    throw invalid(support.reason ?? 'FLUX.2 cannot do this.', op.operation === 'upscale' ? 'upscale' : 'mask');
  }
  const images = (request.inputImage === undefined ? 0 : 1) + (request.referenceImages?.length ?? 0);
  if (images > MAX_IMAGES)
    throw invalid(
      `FLUX.2 takes ${MAX_IMAGES} images in all, the edited one included; this job has ${images}.`,
      'referenceImages',
    );
  if (request.prompt.trim() === '') throw invalid('FLUX.2 needs a prompt: say what to make or change.', 'prompt');
  if (request.prompt.length > PROMPT_LIMIT)
    throw invalid(`FLUX.2 takes prompts of at most ${PROMPT_LIMIT.toLocaleString('en-US')} characters.`, 'prompt');
  const { width, height } = request;
  if (
    width % 16 !== 0 ||
    height % 16 !== 0 ||
    Math.min(width, height) < 64 ||
    Math.max(width, height) > MAX_EDGE ||
    width * height > MAX_PIXELS
  ) {
    throw invalid(
      `${model} makes images whose sides are multiples of 16 from 64 to ${MAX_EDGE} pixels, not ${width}x${height}.`,
      'width',
    );
  }
  if (request.count > caps.maxCount) throw invalid('FLUX.2 makes one image per request: set the count to 1.', 'count');
}
