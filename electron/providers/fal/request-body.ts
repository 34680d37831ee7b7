import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { WorkInputs } from '../types.js';
import { type FalFamily, familyOf, ideogramRatioFor, isEditFamily, takesLoras } from './models.js';

export type FalBody = Record<string, unknown> & { prompt: string };

/** What was asked for but not sent, said in the job's trace (the model has no such input). */
export interface BodyNotes {
  body: FalBody;
  dropped: string[];
}

/** A seed as fal's integer: a 64-bit digit string stays exact (request.ts writes a bigint as its digits). */
function seedOf(seed: GenerateRequest['seed']): number | bigint | undefined {
  if (seed === undefined) return undefined;
  return typeof seed === 'number' ? seed : BigInt(seed);
}

const TAKES_SEED: ReadonlySet<FalFamily> = new Set([
  'flux-dev',
  'flux-lora',
  'flux-lora-edit',
  'flux-schnell',
  'flux-pro',
  'flux-edit',
  'ideogram',
  'generic',
  'generic-edit',
]);
const TAKES_STEPS: Partial<Record<FalFamily, number>> = {
  'flux-dev': 50,
  'flux-edit': 50,
  'flux-lora': 50,
  'flux-lora-edit': 50,
  'flux-schnell': 12,
};
const TAKES_GUIDANCE: ReadonlySet<FalFamily> = new Set(['flux-dev', 'flux-edit', 'flux-lora', 'flux-lora-edit']);
const TAKES_NEGATIVE: ReadonlySet<FalFamily> = new Set(['ideogram', 'generic', 'generic-edit']);
const TAKES_COUNT: ReadonlySet<FalFamily> = new Set([
  'flux-dev',
  'flux-lora',
  'flux-lora-edit',
  'flux-schnell',
  'flux-pro',
  'flux-edit',
  'generic',
  'generic-edit',
]);
/** FLUX's toolkit models answer PNG when asked and run fal's safety checker (it flags `has_nsfw_concepts`). */
const FLUX_TOOLKIT: ReadonlySet<FalFamily> = new Set([
  'flux-dev',
  'flux-schnell',
  'flux-pro',
  'flux-edit',
  'flux-lora',
  'flux-lora-edit',
]);

/**
 * The model's JSON input (docs/hosted-protocols.md §1.3): FLUX and typed ids take `image_size: {width, height}`,
 * `num_images` and `seed`; Ideogram V2 the nearest `aspect_ratio` (MagicPrompt off, so the prompt is the one kept);
 * Recraft V3 `image_size` and its default style; FLUX-LoRA also `loras: [{path, scale}]`. An edit sends the source image as a data URI in `image_url`.
 */
export function submitBody(request: GenerateRequest, model: string, inputs: WorkInputs | undefined): BodyNotes {
  const family = familyOf(model);
  const body: FalBody = { prompt: request.prompt };
  const dropped: string[] = [];
  if (family === 'ideogram') {
    body.aspect_ratio = ideogramRatioFor(request.width, request.height);
    body.expand_prompt = false;
  } else if (!isEditFamily(family)) {
    body.image_size = { width: request.width, height: request.height };
  }
  if (TAKES_COUNT.has(family)) body.num_images = request.count;
  const seed = seedOf(request.seed);
  if (seed !== undefined) {
    if (TAKES_SEED.has(family)) body.seed = seed;
    else dropped.push('seed');
  }
  const maxSteps = TAKES_STEPS[family];
  if (request.steps !== undefined) {
    if (maxSteps !== undefined) body.num_inference_steps = Math.min(maxSteps, request.steps);
    else dropped.push('steps');
  }
  if (request.guidance !== undefined) {
    if (TAKES_GUIDANCE.has(family)) body.guidance_scale = Math.min(20, Math.max(1, request.guidance));
    else dropped.push('guidance');
  }
  if (request.negativePrompt !== undefined && request.negativePrompt.trim() !== '') {
    if (TAKES_NEGATIVE.has(family)) body.negative_prompt = request.negativePrompt;
    else dropped.push('negative prompt');
  }
  // FLUX-LoRA's `loras`: each a path (URL or Hugging Face reference) and its scale.
  if (request.loras !== undefined && request.loras.length > 0) {
    if (takesLoras(family)) body.loras = request.loras.map((lora) => ({ path: lora.name, scale: lora.weight }));
    else dropped.push('LoRAs');
  }
  if (FLUX_TOOLKIT.has(family)) {
    body.output_format = 'png';
    body.enable_safety_checker = true;
  }
  if (request.inputImage !== undefined) {
    const image = inputs?.image;
    if (image === undefined) {
      throw new AppError('internal', 'The source image was not read before the job started; nothing was sent.', {
        details: { phase: 'before_accept' },
      });
    }
    body.image_url = `data:${image.mime};base64,${Buffer.from(image.data).toString('base64')}`;
    if (request.inputImage.strength !== undefined)
      body.strength = Math.min(1, Math.max(0.01, request.inputImage.strength));
  }
  return { body, dropped };
}
