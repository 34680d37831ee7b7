import { type GenerateRequest, type ProviderCapabilities, operationOf } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';

/** How a model's input is shaped; each preset's names come from its Replicate API page (docs/hosted-protocols.md). */
export type ModelFamily =
  'flux-schnell' | 'flux-dev' | 'flux-pro' | 'flux-kontext' | 'sd35' | 'ideogram' | 'recraft' | 'generic';

/** The presets offered offline; any other `owner/name` or `owner/name:version` is sent with generic inputs. */
export const REPLICATE_MODELS = [
  'black-forest-labs/flux-schnell',
  'black-forest-labs/flux-dev',
  'black-forest-labs/flux-1.1-pro',
  'black-forest-labs/flux-kontext-pro',
  'stability-ai/stable-diffusion-3.5-large',
  'ideogram-ai/ideogram-v2',
  'recraft-ai/recraft-v3',
] as const;
export const DEFAULT_REPLICATE_MODEL = 'black-forest-labs/flux-schnell';

const FAMILIES: Record<string, ModelFamily> = {
  'black-forest-labs/flux-schnell': 'flux-schnell',
  'black-forest-labs/flux-dev': 'flux-dev',
  'black-forest-labs/flux-1.1-pro': 'flux-pro',
  'black-forest-labs/flux-kontext-pro': 'flux-kontext',
  'stability-ai/stable-diffusion-3.5-large': 'sd35',
  'ideogram-ai/ideogram-v2': 'ideogram',
  'recraft-ai/recraft-v3': 'recraft',
};

/** A model as typed: `owner/name` runs its latest (official) version, `owner/name:version` that exact version. */
export interface ModelRef {
  owner: string;
  name: string;
  version?: string;
}

// Bounded, anchored and without nested quantifiers: linear on any typed text.
const MODEL_REF = /^([a-z0-9][a-z0-9_.-]{0,99})\/([a-z0-9][a-z0-9_.-]{0,99})(?::([a-z0-9]{1,128}))?$/i;

export function parseModelRef(model: string): ModelRef | undefined {
  const match = MODEL_REF.exec(model);
  if (match === null) return undefined;
  const ref: ModelRef = { owner: match[1]!, name: match[2]! };
  if (match[3] !== undefined) ref.version = match[3];
  return ref;
}

export function familyOf(model: string): ModelFamily {
  const ref = parseModelRef(model);
  if (ref === undefined || ref.version !== undefined) return 'generic';
  return FAMILIES[`${ref.owner}/${ref.name}`.toLowerCase()] ?? 'generic';
}

/** The aspect ratios each family's `aspect_ratio` takes (width:height). */
const FLUX_RATIOS = ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'];
const KONTEXT_RATIOS = [...FLUX_RATIOS.slice(0, 10), '2:1', '1:2'];
const IDEOGRAM_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3', '16:10', '10:16', '3:1', '1:3'];
export const ASPECT_RATIOS: Partial<Record<ModelFamily, readonly string[]>> = {
  'flux-schnell': FLUX_RATIOS,
  'flux-dev': FLUX_RATIOS,
  'flux-kontext': KONTEXT_RATIOS,
  sd35: FLUX_RATIOS,
  ideogram: IDEOGRAM_RATIOS,
};

/** Recraft V3's `size` takes only these. */
export const RECRAFT_SIZES: [number, number][] = [
  [1024, 1024],
  [1365, 1024],
  [1024, 1365],
  [1536, 1024],
  [1024, 1536],
  [1820, 1024],
  [1024, 1820],
  [1024, 2048],
  [2048, 1024],
  [1434, 1024],
  [1024, 1434],
  [1024, 1280],
  [1280, 1024],
  [1024, 1707],
  [1707, 1024],
];

/** FLUX 1.1 [pro]'s custom width and height: multiples of 32 from 256 to 1440. */
export const FLUX_PRO_SIZES = { min: 256, max: 1440, multipleOf: 32 };

/** The ratio of `ratios` closest to width:height on a log scale (2:1 and 1:2 are equally far from 1:1). */
export function nearestRatio(width: number, height: number, ratios: readonly string[]): string {
  const wanted = Math.log(width / height);
  let best = ratios[0]!;
  let bestDistance = Infinity;
  for (const ratio of ratios) {
    const [w, h] = ratio.split(':').map(Number) as [number, number];
    const distance = Math.abs(Math.log(w / h) - wanted);
    if (distance < bestDistance) {
      best = ratio;
      bestDistance = distance;
    }
  }
  return best;
}

const PRESETS: [number, number][] = [
  [1024, 1024],
  [1344, 768],
  [768, 1344],
  [1216, 832],
  [832, 1216],
];

const NO_MASK =
  'Replicate models here edit from a text instruction and take no mask: describe the change in the prompt, or use ' +
  'AUTOMATIC1111 or ComfyUI for a masked edit.';
const NO_UPSCALE = 'Replicate image models here cannot upscale. Use AUTOMATIC1111, ComfyUI or the built-in upscaler.';
const EDIT_ELSEWHERE =
  'This model makes images from text only. Pick black-forest-labs/flux-kontext-pro or black-forest-labs/flux-dev to ' +
  'edit an image.';

interface FamilyRules {
  maxCount: number;
  steps?: { min: number; max: number; default: number };
  guidance?: { min: number; max: number; default: number };
  negativePrompt: boolean;
  seed: boolean;
  /** The input field the source image goes in, when the model edits. */
  imageField?: 'input_image' | 'image';
  outputFormats: ('png' | 'webp')[];
}

export const RULES: Record<ModelFamily, FamilyRules> = {
  'flux-schnell': {
    maxCount: 4,
    steps: { min: 1, max: 4, default: 4 },
    negativePrompt: false,
    seed: true,
    outputFormats: ['png'],
  },
  'flux-dev': {
    maxCount: 4,
    steps: { min: 1, max: 50, default: 28 },
    guidance: { min: 0, max: 10, default: 3 },
    negativePrompt: false,
    seed: true,
    imageField: 'image',
    outputFormats: ['png'],
  },
  'flux-pro': { maxCount: 1, negativePrompt: false, seed: true, outputFormats: ['png'] },
  'flux-kontext': { maxCount: 1, negativePrompt: false, seed: true, imageField: 'input_image', outputFormats: ['png'] },
  sd35: {
    maxCount: 1,
    steps: { min: 1, max: 50, default: 40 },
    guidance: { min: 0, max: 20, default: 3.5 },
    negativePrompt: false,
    seed: true,
    outputFormats: ['png'],
  },
  ideogram: { maxCount: 1, negativePrompt: true, seed: true, outputFormats: ['png'] },
  recraft: { maxCount: 1, negativePrompt: false, seed: false, outputFormats: ['webp'] },
  generic: {
    maxCount: 4,
    steps: { min: 1, max: 150, default: 30 },
    guidance: { min: 0, max: 30, default: 7 },
    negativePrompt: true,
    seed: true,
    outputFormats: ['png'],
  },
};

export function replicateCapabilities(model: string): ProviderCapabilities {
  const family = familyOf(model);
  const rules = RULES[family];
  const sizes =
    family === 'flux-pro'
      ? { ...FLUX_PRO_SIZES, presets: PRESETS }
      : family === 'recraft'
        ? { min: 1024, max: 2048, multipleOf: 1, fixed: RECRAFT_SIZES, presets: RECRAFT_SIZES.slice(0, 5) }
        : { min: 64, max: 2048, multipleOf: 8, presets: PRESETS };
  return {
    sizes,
    maxCount: rules.maxCount,
    ...(rules.steps === undefined ? {} : { steps: rules.steps }),
    ...(rules.guidance === undefined ? {} : { guidance: rules.guidance }),
    seed: rules.seed,
    negativePrompt: rules.negativePrompt,
    maxPartialImages: 0,
    outputFormats: rules.outputFormats,
    operations: {
      img2img: rules.imageField === undefined ? { supported: false, reason: EDIT_ELSEWHERE } : { supported: true },
      inpaint: { supported: false, reason: NO_MASK },
      upscale: { supported: false, reason: NO_UPSCALE },
    },
  };
}

function invalid(message: string, field: string): AppError {
  return new AppError('invalid_request', message, { details: { field } });
}

/** What Replicate or the model would reject, caught before anything is sent. */
export function validateReplicateRequest(request: GenerateRequest, model: string): void {
  if (parseModelRef(model) === undefined) {
    throw invalid(
      `"${model.slice(0, 80)}" is not a Replicate model: write owner/name (black-forest-labs/flux-schnell) or ` +
        'owner/name:version.',
      'model',
    );
  }
  const family = familyOf(model);
  const caps = replicateCapabilities(model);
  const op = operationOf(request);
  if ('error' in op) throw invalid(op.error, op.field);
  if ('operation' in op && op.operation !== 'generate' && op.operation !== 'variation') {
    const support = caps.operations[op.operation];
    if (!support.supported) throw invalid(support.reason ?? 'This model cannot do that.', op.operation);
  }
  if (request.count > caps.maxCount) {
    throw invalid(`${model} makes at most ${caps.maxCount} image${caps.maxCount === 1 ? '' : 's'} per run.`, 'count');
  }
  const { width, height } = request;
  if (family === 'flux-pro') {
    const { min, max, multipleOf } = FLUX_PRO_SIZES;
    if (
      width % multipleOf !== 0 ||
      height % multipleOf !== 0 ||
      Math.min(width, height) < min ||
      Math.max(width, height) > max
    )
      throw invalid(
        `${model} makes images whose sides are multiples of ${multipleOf} from ${min} to ${max} pixels, not ` +
          `${width}x${height}.`,
        'width',
      );
  }
  if (family === 'recraft' && !RECRAFT_SIZES.some(([w, h]) => w === width && h === height)) {
    throw invalid(
      `${model} makes only these sizes: ${RECRAFT_SIZES.map(([w, h]) => `${w}x${h}`).join(', ')}; not ${width}x${height}.`,
      'width',
    );
  }
  if (request.steps !== undefined && caps.steps !== undefined && request.steps > caps.steps.max)
    throw invalid(`${model} takes at most ${caps.steps.max} steps.`, 'steps');
}
