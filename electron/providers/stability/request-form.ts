import { type GenerateRequest, operationOf } from '../../../shared/contract.js';
import type { FormPart } from '../http/multipart.js';
import type { WorkInputs } from '../types.js';
import { checkSourceSize } from './input-limits.js';
import { type StabilityUpscaler, aspectRatioFor, endpointOf } from './models.js';
import { filePart, required } from './source-file.js';

/** Atelier's default image-to-image strength (A1111's and ComfyUI's too); Stability requires one with an image. */
export const DEFAULT_STRENGTH = 0.75;

/** One POST to Stability: where, the multipart fields, and whether it answers an id to poll instead of the image. */
export interface StabilityCall {
  /** Under the base URL: v2beta/stable-image/{generate,edit,upscale}/<endpoint>. */
  path: string;
  parts: FormPart[];
  /** Creative upscale answers `{id}`; the image is collected from /v2beta/results/{id}. */
  async: boolean;
  /** What was left out of the request and why, for the job's trace. */
  notes: string[];
}

function field(name: string, value: string | number | undefined): FormPart[] {
  return value === undefined || value === '' ? [] : [{ name, value: String(value) }];
}

function common(request: GenerateRequest): FormPart[] {
  return [...field('seed', request.seed), ...field('output_format', 'png')];
}

function negative(request: GenerateRequest): FormPart[] {
  return field('negative_prompt', request.negativePrompt?.trim());
}

/**
 * The call for a request (docs/hosted-protocols.md §1.5, docs/provider-protocols.md §5): text to image on
 * generate/{ultra,core,sd3}; image to image on ultra or sd3 (`mode=image-to-image`) with `strength`; a masked edit on
 * edit/inpaint, or edit/erase for the `erase` model; an upscale on upscale/{fast,conservative,creative}.
 */
export async function buildCall(
  request: GenerateRequest,
  model: string,
  inputs: WorkInputs | undefined,
): Promise<StabilityCall> {
  const call = await callFor(request, model, inputs);
  if (inputs?.image !== undefined && call.parts.some((p) => p.name === 'image'))
    checkSourceSize(call.path, inputs.image);
  return call;
}

async function callFor(
  request: GenerateRequest,
  model: string,
  inputs: WorkInputs | undefined,
): Promise<StabilityCall> {
  const op = operationOf(request);
  const operation = 'operation' in op ? op.operation : 'generate';
  const endpoint = endpointOf(model);
  const notes: string[] = [];
  if (operation === 'upscale') return upscaleCall(request, inputs, notes);
  if (operation === 'inpaint') {
    const image = await filePart('image', required(inputs, 'image'));
    const mask = await filePart('mask', required(inputs, 'mask'));
    if (endpoint === 'erase') {
      notes.push('erase takes no prompt: the masked area is filled from its surroundings.');
      if ((request.negativePrompt?.trim() ?? '') !== '') notes.push('erase takes no negative prompt: it was not sent.');
      return { path: 'v2beta/stable-image/edit/erase', parts: [image, mask, ...common(request)], async: false, notes };
    }
    notes.push(`edit/inpaint runs Stability's own inpainting model, whatever the model (${model}) says.`);
    if (request.inputImage?.strength !== undefined)
      notes.push(`edit/inpaint has no strength setting: ${request.inputImage.strength} was not sent.`);
    const parts = [image, mask, ...field('prompt', request.prompt), ...negative(request), ...common(request)];
    return { path: 'v2beta/stable-image/edit/inpaint', parts, async: false, notes };
  }
  const fromImage = operation === 'img2img';
  const parts: FormPart[] = [...field('prompt', request.prompt), ...negative(request)];
  if (endpoint === 'sd3') {
    parts.push(...field('model', model), ...field('mode', fromImage ? 'image-to-image' : 'text-to-image'));
    parts.push(...field('cfg_scale', request.guidance));
  }
  if (fromImage) {
    const strength = request.inputImage?.strength ?? DEFAULT_STRENGTH;
    if (request.inputImage?.strength === undefined) notes.push(`strength ${DEFAULT_STRENGTH} (Atelier's default).`);
    parts.push(await filePart('image', required(inputs, 'image')), ...field('strength', strength));
    notes.push('the aspect ratio follows the source image.');
  } else parts.push(...field('aspect_ratio', aspectRatioFor(request.width, request.height)));
  parts.push(...common(request));
  const path = `v2beta/stable-image/generate/${endpoint === 'sd3' ? 'sd3' : model}`;
  return { path, parts, async: false, notes };
}

async function upscaleCall(
  request: GenerateRequest,
  inputs: WorkInputs | undefined,
  notes: string[],
): Promise<StabilityCall> {
  const upscaler = (request.upscale?.upscaler ?? 'fast') as StabilityUpscaler;
  const image = await filePart('image', required(inputs, 'image'));
  const path = `v2beta/stable-image/upscale/${upscaler}`;
  if (upscaler === 'fast') return { path, parts: [image, ...field('output_format', 'png')], async: false, notes };
  notes.push(`the ${upscaler} upscaler picks the size itself (up to 4 megapixels), whatever the factor.`);
  const parts = [image, ...field('prompt', request.prompt), ...negative(request), ...common(request)];
  return { path, parts, async: upscaler === 'creative', notes };
}
