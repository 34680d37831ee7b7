import {
  type GenerateRequest,
  type OperationCapabilities,
  type ProviderCapabilities,
  operationOf,
} from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { modelSegments } from './queue-paths.js';

/** The presets of docs/hosted-protocols.md §1.3; any other fal model id can be typed and runs as `generic`. */
export const FAL_MODELS = [
  'fal-ai/flux/dev',
  'fal-ai/flux/schnell',
  'fal-ai/flux-pro/v1.1',
  'fal-ai/recraft-v3',
  'fal-ai/ideogram/v2',
  'fal-ai/flux/dev/image-to-image',
  'fal-ai/flux-lora',
] as const;
export const DEFAULT_FAL_MODEL = 'fal-ai/flux/dev';
export const FAL_EDIT_MODEL = 'fal-ai/flux/dev/image-to-image';

/** How a model's input is shaped: FLUX's toolkit inputs, Recraft's, Ideogram's aspect ratio, or a typed id. */
export type FalFamily =
  | 'flux-dev'
  | 'flux-schnell'
  | 'flux-pro'
  | 'flux-edit'
  | 'flux-lora'
  | 'flux-lora-edit'
  | 'recraft'
  | 'ideogram'
  | 'generic'
  | 'generic-edit';

const FAMILIES: Record<string, FalFamily> = {
  'fal-ai/flux/dev': 'flux-dev',
  'fal-ai/flux/schnell': 'flux-schnell',
  'fal-ai/flux-pro/v1.1': 'flux-pro',
  'fal-ai/flux/dev/image-to-image': 'flux-edit',
  'fal-ai/flux-lora': 'flux-lora',
  'fal-ai/flux-lora/image-to-image': 'flux-lora-edit',
  'fal-ai/recraft-v3': 'recraft',
  'fal-ai/recraft/v3/text-to-image': 'recraft',
  'fal-ai/ideogram/v2': 'ideogram',
};

export function familyOf(model: string): FalFamily {
  const known = FAMILIES[model];
  if (known !== undefined) return known;
  // fal names its edit endpoints by sub-path (…/image-to-image, …/edit): those take `image_url`.
  return /\/(image-to-image|edit)$/.test(model) ? 'generic-edit' : 'generic';
}

export function isEditFamily(family: FalFamily): boolean {
  return family === 'flux-edit' || family === 'flux-lora-edit' || family === 'generic-edit';
}

/** The FLUX-LoRA endpoints take `loras: [{path, scale}]`; fal's other models have no LoRA input. */
export function takesLoras(family: FalFamily): boolean {
  return family === 'flux-lora' || family === 'flux-lora-edit';
}

// fal loads LoRA weights from a URL (Hugging Face, civitai downloads, any https file) or a Hugging Face `owner/repo`.
const LORA_PATH = /^(https:\/\/\S+|[\w.-]+\/[\w.-]+(\/[\w./-]+)?)$/;

/** fal's named `image_size` presets, as width and height (square_hd, portrait_4_3, portrait_16_9, …). */
const TOOLKIT_PRESETS: [number, number][] = [
  [1024, 1024],
  [768, 1024],
  [576, 1024],
  [1024, 768],
  [1024, 576],
  [512, 512],
];

/** Ideogram V2's aspect ratios with the size it renders each at. */
export const IDEOGRAM_RATIOS: readonly { ratio: string; size: [number, number] }[] = [
  { ratio: '1:1', size: [1024, 1024] },
  { ratio: '16:9', size: [1312, 736] },
  { ratio: '9:16', size: [736, 1312] },
  { ratio: '4:3', size: [1152, 864] },
  { ratio: '3:4', size: [864, 1152] },
  { ratio: '3:2', size: [1248, 832] },
  { ratio: '2:3', size: [832, 1248] },
  { ratio: '16:10', size: [1280, 800] },
  { ratio: '10:16', size: [800, 1280] },
  { ratio: '3:1', size: [1536, 512] },
  { ratio: '1:3', size: [512, 1536] },
];

/** The Ideogram ratio closest to width:height on a log scale (2:1 and 1:2 are equally far from 1:1). */
export function ideogramRatioFor(width: number, height: number): string {
  const wanted = Math.log(width / height);
  let best = IDEOGRAM_RATIOS[0]!;
  for (const entry of IDEOGRAM_RATIOS) {
    const [w, h] = entry.size;
    if (Math.abs(Math.log(w / h) - wanted) < Math.abs(Math.log(best.size[0] / best.size[1]) - wanted)) best = entry;
  }
  return best.ratio;
}

const NO_MASK =
  'fal.ai models in Atelier edit a whole image and take no mask: describe the change in the prompt with ' +
  `${FAL_EDIT_MODEL}, or use OpenAI, AUTOMATIC1111 or ComfyUI for a masked edit.`;
const NO_UPSCALE = 'fal.ai cannot upscale in Atelier. Use AUTOMATIC1111, ComfyUI or the built-in provider.';

function operations(family: FalFamily, model: string): OperationCapabilities {
  return {
    img2img: isEditFamily(family)
      ? { supported: true }
      : {
          supported: false,
          reason: `${model} makes images from text only. Pick ${FAL_EDIT_MODEL} (or another fal …/image-to-image id) to edit an image.`,
        },
    inpaint: { supported: false, reason: NO_MASK },
    upscale: { supported: false, reason: NO_UPSCALE },
  };
}

export function falCapabilities(model: string): ProviderCapabilities {
  const family = familyOf(model);
  const common = {
    maxPartialImages: 0,
    outputFormats: ['png' as const],
    operations: operations(family, model),
  };
  switch (family) {
    case 'flux-dev':
    case 'flux-edit':
    case 'flux-lora':
    case 'flux-lora-edit':
      return {
        ...common,
        sizes: { min: 256, max: 2048, multipleOf: 16, presets: TOOLKIT_PRESETS },
        maxCount: 4,
        steps: { min: 1, max: 50, default: family === 'flux-edit' ? 40 : 28 },
        guidance: { min: 1, max: 20, default: 3.5 },
        seed: true,
        negativePrompt: false,
        ...(takesLoras(family) ? { loras: true } : {}),
      };
    case 'flux-schnell':
      return {
        ...common,
        sizes: { min: 256, max: 2048, multipleOf: 16, presets: TOOLKIT_PRESETS },
        maxCount: 4,
        steps: { min: 1, max: 12, default: 4 },
        seed: true,
        negativePrompt: false,
      };
    case 'flux-pro':
      return {
        ...common,
        sizes: { min: 256, max: 1440, multipleOf: 32, presets: TOOLKIT_PRESETS },
        maxCount: 4,
        seed: true,
        negativePrompt: false,
      };
    case 'recraft':
      return {
        ...common,
        sizes: { min: 256, max: 2048, multipleOf: 8, presets: TOOLKIT_PRESETS },
        maxCount: 1,
        seed: false,
        negativePrompt: false,
      };
    case 'ideogram':
      return {
        ...common,
        sizes: { min: 64, max: 4096, multipleOf: 1, presets: IDEOGRAM_RATIOS.map((r) => r.size) },
        maxCount: 1,
        seed: true,
        negativePrompt: true,
      };
    case 'generic':
    case 'generic-edit':
      return {
        ...common,
        sizes: { min: 64, max: 4096, multipleOf: 8, presets: TOOLKIT_PRESETS },
        maxCount: 4,
        seed: true,
        negativePrompt: true,
      };
  }
}

/** Recraft V3 takes prompts of at most 1,000 characters; the other presets document no limit below the contract's. */
const PROMPT_LIMITS: Partial<Record<FalFamily, number>> = { recraft: 1000 };

function invalid(message: string, field: string): AppError {
  return new AppError('invalid_request', message, { details: { field } });
}

/** What fal would reject (or silently ignore) for this model, caught before anything is sent. */
export function validateFalRequest(request: GenerateRequest, model: string): void {
  modelSegments(model);
  const family = familyOf(model);
  const caps = falCapabilities(model);
  const op = operationOf(request);
  if ('error' in op) throw invalid(op.error, op.field);
  if (op.operation === 'inpaint' || op.operation === 'upscale') {
    throw invalid(
      caps.operations[op.operation].reason ?? 'fal.ai cannot do this.',
      op.operation === 'upscale' ? 'upscale' : 'mask',
    );
  }
  if (op.operation === 'img2img' && !caps.operations.img2img.supported)
    throw invalid(caps.operations.img2img.reason ?? 'This model cannot edit an image.', 'model');
  if (op.operation !== 'img2img' && isEditFamily(family)) {
    throw invalid(
      `${model} edits an image: use an image as input, or pick a text-to-image model such as ${DEFAULT_FAL_MODEL}.`,
      'inputImage',
    );
  }
  validateLoras(request, model, family);
  const limit = PROMPT_LIMITS[family];
  if (limit !== undefined && request.prompt.length > limit)
    throw invalid(`${model} takes prompts of at most ${limit.toLocaleString('en-US')} characters.`, 'prompt');
  // An edit's size follows its source image and Ideogram's follows the nearest aspect ratio: only the others are checked.
  if (!isEditFamily(family) && family !== 'ideogram') {
    const { min, max, multipleOf } = caps.sizes;
    const { width, height } = request;
    if (
      width % multipleOf !== 0 ||
      height % multipleOf !== 0 ||
      Math.min(width, height) < min ||
      Math.max(width, height) > max
    ) {
      throw invalid(
        `${model} makes images whose sides are multiples of ${multipleOf} from ${min} to ${max} pixels, not ${width}x${height}.`,
        'width',
      );
    }
  }
  if (request.count > caps.maxCount) {
    throw invalid(
      `${model} makes at most ${caps.maxCount} image${caps.maxCount === 1 ? '' : 's'} per request: lower the count.`,
      'count',
    );
  }
}

/** LoRAs only where the endpoint takes them, each by a path fal can fetch (not a file name on a local server). */
function validateLoras(request: GenerateRequest, model: string, family: FalFamily): void {
  const loras = request.loras ?? [];
  if (loras.length === 0) return;
  if (!takesLoras(family)) throw invalid(`${model} takes no LoRAs: pick fal-ai/flux-lora to use them.`, 'loras');
  loras.forEach((lora, index) => {
    if (!LORA_PATH.test(lora.name))
      throw invalid(
        `fal.ai loads a LoRA from an https URL or a Hugging Face reference (owner/repo), not “${lora.name}”.`,
        `loras.${index}.name`,
      );
  });
}
