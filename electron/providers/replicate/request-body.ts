import type { GenerateRequest } from '../../../shared/contract.js';
import { ASPECT_RATIOS, type ModelRef, RECRAFT_SIZES, RULES, familyOf, nearestRatio, parseModelRef } from './models.js';

export type ReplicateInput = Record<string, unknown> & { prompt: string };

export interface CreateCall {
  /** The path below the base: an official model's own predictions, or /v1/predictions for a pinned version. */
  path: string;
  body: { input: ReplicateInput; version?: string };
}

/** A seed as Replicate's integer: a 64-bit digit string stays exact (http/request.ts writes a bigint as its digits). */
function seedOf(seed: GenerateRequest['seed']): number | bigint | undefined {
  if (seed === undefined) return undefined;
  return typeof seed === 'number' ? seed : BigInt(seed);
}

/** Width and height as the model takes them: an aspect ratio, FLUX 1.1 [pro]'s custom size, or Recraft's size. */
function sizeInput(request: GenerateRequest, model: string, editing: boolean): Record<string, unknown> {
  const family = familyOf(model);
  const { width, height } = request;
  if (family === 'flux-pro') return { aspect_ratio: 'custom', width, height };
  if (family === 'recraft') {
    const size = RECRAFT_SIZES.find(([w, h]) => w === width && h === height) ?? RECRAFT_SIZES[0]!;
    return { size: `${size[0]}x${size[1]}` };
  }
  if (family === 'flux-kontext' && editing) return { aspect_ratio: 'match_input_image' };
  // flux-dev's img2img takes its size from the input image and ignores aspect_ratio.
  if (family === 'flux-dev' && editing) return {};
  const ratios = ASPECT_RATIOS[family];
  if (ratios !== undefined) return { aspect_ratio: nearestRatio(width, height, ratios) };
  return { width, height };
}

/**
 * The create call for one job: `input` in the names the model's API page gives (prompt, aspect_ratio or size,
 * num_outputs, seed, steps and guidance where it takes them, output_format png), the source image as a data URI
 * (`imageUri`) in the model's image field for an edit.
 */
export function createCall(request: GenerateRequest, model: string, imageUri: string | undefined): CreateCall {
  const ref = parseModelRef(model) as ModelRef;
  const family = familyOf(model);
  const rules = RULES[family];
  const editing = request.inputImage !== undefined;
  const input: ReplicateInput = { prompt: request.prompt, ...sizeInput(request, model, editing) };
  if (rules.maxCount > 1) input.num_outputs = request.count;
  const seed = seedOf(request.seed);
  if (seed !== undefined && rules.seed) input.seed = seed;
  if (request.steps !== undefined && rules.steps !== undefined) {
    input[family === 'sd35' ? 'steps' : 'num_inference_steps'] = Math.min(rules.steps.max, request.steps);
  }
  if (request.guidance !== undefined && rules.guidance !== undefined) {
    const value = Math.min(rules.guidance.max, Math.max(rules.guidance.min, request.guidance));
    input[family === 'sd35' ? 'cfg' : family === 'flux-dev' ? 'guidance' : 'guidance_scale'] = value;
  }
  if (request.negativePrompt !== undefined && request.negativePrompt.trim() !== '' && rules.negativePrompt)
    input.negative_prompt = request.negativePrompt;
  if (rules.outputFormats.includes('png') && family !== 'ideogram' && family !== 'generic') input.output_format = 'png';
  if (editing && rules.imageField !== undefined && imageUri !== undefined) {
    input[rules.imageField] = imageUri;
    const strength = request.inputImage?.strength;
    if (rules.imageField === 'image' && strength !== undefined) input.prompt_strength = strength;
  }
  if (ref.version !== undefined) return { path: 'v1/predictions', body: { version: ref.version, input } };
  return {
    path: `v1/models/${encodeURIComponent(ref.owner)}/${encodeURIComponent(ref.name)}/predictions`,
    body: { input },
  };
}
