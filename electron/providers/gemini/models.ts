import {
  type GenerateRequest,
  type OperationCapabilities,
  type ProviderCapabilities,
  operationOf,
} from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';

/** The image models of docs/hosted-protocols.md §1.1; other names pass through as Gemini 3 models. */
export const GEMINI_MODELS = [
  'gemini-2.5-flash-image',
  'gemini-3-pro-image-preview',
  'gemini-3.1-flash-image-preview',
] as const;
export const DEFAULT_GEMINI_MODEL = 'gemini-2.5-flash-image';

/** gemini-2.5-flash-image makes 1K images only and takes no imageSize; the Gemini 3 models take 1K, 2K or 4K. */
export function takesImageSize(model: string): boolean {
  return !model.startsWith('gemini-2.');
}

/** The aspect ratios `imageConfig.aspectRatio` takes, as width:height. */
export const ASPECT_RATIOS: readonly [number, number][] = [
  [1, 1],
  [2, 3],
  [3, 2],
  [3, 4],
  [4, 3],
  [4, 5],
  [5, 4],
  [9, 16],
  [16, 9],
  [21, 9],
];

/** Gemini's 1K output size for each ratio above, offered as presets. */
const PRESETS: [number, number][] = [
  [1024, 1024],
  [832, 1248],
  [1248, 832],
  [864, 1184],
  [1184, 864],
  [896, 1152],
  [1152, 896],
  [768, 1344],
  [1344, 768],
  [1536, 672],
];

const MAX_1K_EDGE = 1536;
const MAX_4K_EDGE = 6336;
const PROMPT_LIMIT = 32_000;

/** The supported ratio closest to width:height (compared on a log scale, so 2:1 and 1:2 are equally far from 1:1). */
export function aspectRatioFor(width: number, height: number): string {
  const wanted = Math.log(width / height);
  let best = ASPECT_RATIOS[0]!;
  for (const ratio of ASPECT_RATIOS) {
    if (Math.abs(Math.log(ratio[0] / ratio[1]) - wanted) < Math.abs(Math.log(best[0] / best[1]) - wanted)) best = ratio;
  }
  return `${best[0]}:${best[1]}`;
}

/** The smallest of 1K, 2K, 4K whose long edge holds the request's long edge. */
export function imageSizeFor(width: number, height: number): '1K' | '2K' | '4K' {
  const edge = Math.max(width, height);
  if (edge <= MAX_1K_EDGE) return '1K';
  if (edge <= MAX_1K_EDGE * 2) return '2K';
  return '4K';
}

const NO_MASK =
  'Gemini edits from a text instruction and cannot take a mask: describe the change in the prompt instead, or use ' +
  'OpenAI, AUTOMATIC1111 or ComfyUI for a masked edit.';
const NO_UPSCALE = 'Gemini cannot upscale. Upscale with AUTOMATIC1111, ComfyUI or the built-in provider.';

export function geminiOperations(): OperationCapabilities {
  return {
    img2img: { supported: true },
    inpaint: { supported: false, reason: NO_MASK },
    upscale: { supported: false, reason: NO_UPSCALE },
  };
}

export function geminiCapabilities(model: string): ProviderCapabilities {
  return {
    sizes: { min: 256, max: takesImageSize(model) ? MAX_4K_EDGE : MAX_1K_EDGE, multipleOf: 8, presets: PRESETS },
    maxCount: 1,
    seed: false,
    negativePrompt: false,
    maxPartialImages: 0,
    outputFormats: ['png'],
    // Gemini 3 image models compose up to 14 images; 2.5 Flash Image works best with up to 3 (Google's image docs).
    maxReferenceImages: takesImageSize(model) ? 14 : 3,
    operations: geminiOperations(),
  };
}

function invalid(message: string, field: string): AppError {
  return new AppError('invalid_request', message, { details: { field } });
}

/** Everything Gemini would reject or silently ignore, caught before a request (and a bill) happens. */
export function validateGeminiRequest(request: GenerateRequest, model: string): void {
  const caps = geminiCapabilities(model);
  const op = operationOf(request);
  if ('error' in op) throw invalid(op.error, op.field);
  if ('operation' in op && (op.operation === 'inpaint' || op.operation === 'upscale')) {
    const support = caps.operations[op.operation];
    throw invalid(support.reason ?? 'Gemini cannot do this.', op.operation === 'upscale' ? 'upscale' : 'mask');
  }
  if (request.prompt.trim() === '') throw invalid('Gemini needs a prompt: say what to make or change.', 'prompt');
  if (request.prompt.length > PROMPT_LIMIT)
    throw invalid(`Gemini takes prompts of at most ${PROMPT_LIMIT.toLocaleString('en-US')} characters.`, 'prompt');
  const { width, height } = request;
  if (Math.min(width, height) < caps.sizes.min || Math.max(width, height) > caps.sizes.max) {
    throw invalid(
      `${model} makes images from ${caps.sizes.min} to ${caps.sizes.max} pixels a side, not ${width}x${height}.`,
      'width',
    );
  }
  if (request.count > caps.maxCount) throw invalid('Gemini makes one image per request: set the count to 1.', 'count');
  if (request.negativePrompt !== undefined && request.negativePrompt.trim() !== '')
    throw invalid('Gemini has no negative prompt: say what you want instead.', 'negativePrompt');
  if (request.seed !== undefined)
    throw invalid('Gemini does not take a seed, so results cannot be repeated exactly.', 'seed');
  if (request.steps !== undefined) throw invalid('Gemini does not take a step count.', 'steps');
  if (request.guidance !== undefined) throw invalid('Gemini does not take a guidance scale.', 'guidance');
  if (request.sampler !== undefined) throw invalid('Gemini does not take a sampler.', 'sampler');
  if (request.quality !== undefined) throw invalid('Gemini does not take a quality setting.', 'quality');
  if (request.background !== undefined) throw invalid('Gemini does not take a background setting.', 'background');
  if (request.outputFormat !== undefined && request.outputFormat !== 'png')
    throw invalid('Gemini returns PNG only.', 'outputFormat');
  if (request.partialImages !== undefined && request.partialImages > 0)
    throw invalid('Gemini does not stream partial previews.', 'partialImages');
}
