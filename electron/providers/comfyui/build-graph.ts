import { type GenerateRequest, operationOf } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { type Seed, seedToBigInt } from '../../../shared/seed.js';
import type { ProviderConfig } from '../types.js';
import { COMFYUI_DEFAULTS, upscalersOf } from './capabilities.js';
import { connection } from './connection.js';
import { DEFAULT_STRENGTH, defaultImageWorkflow } from './image-graphs.js';
import { LORA_TAG_UNSAFE, loraTags } from '../lora-text.js';
import { withLoraChain } from './lora-chain.js';
import type { UpscalerMemo } from './test-connection.js';
import {
  type ApiGraph,
  type WorkflowValues,
  checkPlaceholders,
  defaultWorkflow,
  fillWorkflow,
  parseWorkflow,
} from './workflow.js';

export function invalid(message: string, field: string): AppError {
  return new AppError('invalid_request', message, { details: { field } });
}

/** Names of the uploaded source image and mask, as LoadImage / LoadImageMask take them. */
export interface Uploaded {
  image: string;
  mask?: string;
}

/** The request's operation, or the contract's own message when its parts conflict. */
export function operation(request: GenerateRequest): 'generate' | 'img2img' | 'inpaint' | 'upscale' {
  const op = operationOf(request);
  if ('error' in op) throw invalid(op.error, op.field);
  // A variation is a new text-to-image run with the same settings; lineage is the engine's business.
  return op.operation === 'variation' ? 'generate' : op.operation;
}

/** Upscale checks that need no network: a named model must be one the server listed (when a list is known). */
export function checkUpscale(request: GenerateRequest, config: ProviderConfig, memo: UpscalerMemo): void {
  connection(config);
  const named = request.upscale?.upscaler;
  const known = upscalersOf(config, memo);
  if (named !== undefined && known !== undefined && !known.includes(named)) {
    throw invalid(
      known.length === 0
        ? `This ComfyUI server has no upscale models, so it cannot use "${named}": leave the upscaler empty to ` +
            `upscale with Lanczos.`
        : `This ComfyUI server has no upscale model "${named}". It has: ${known.join(', ')}.`,
      'upscale',
    );
  }
}

/**
 * The graph for this request (default or the user's), checked without any network call, with the placeholders it uses
 * and their values.
 */
export function buildGraph(
  request: GenerateRequest,
  config: ProviderConfig,
  seed: Seed,
  uploaded?: Uploaded,
): { graph: ApiGraph; used: Set<string>; values: WorkflowValues } {
  connection(config);
  const op = operation(request);
  const fromImage = op === 'img2img' || op === 'inpaint';
  // From an image the latent is the image's own size; the request's width and height do not apply.
  if (!fromImage && (request.width % 8 !== 0 || request.height % 8 !== 0))
    throw invalid(
      `ComfyUI latents need a width and height divisible by 8 (got ${request.width}x${request.height}).`,
      'width',
    );
  if (request.quality !== undefined)
    throw invalid('ComfyUI has no quality setting: use steps and the sampler instead.', 'quality');
  if (request.background !== undefined) throw invalid('ComfyUI has no background setting.', 'background');
  if (request.outputFormat !== undefined && request.outputFormat !== 'png')
    throw invalid("ComfyUI's SaveImage writes PNG only.", 'outputFormat');
  const model = request.model ?? config.model;
  const custom = config.workflow !== undefined && config.workflow.trim() !== '';
  const graph = custom
    ? parseWorkflow(config.workflow!)
    : fromImage
      ? defaultImageWorkflow({ mask: op === 'inpaint', count: request.count })
      : defaultWorkflow();
  const used = checkPlaceholders(graph);
  if (custom) checkImagePlaceholders(op, used, request);
  if (used.has('model') && (model === undefined || model === '')) {
    throw invalid('Choose a ComfyUI checkpoint (model) first: "Test connection" lists the ones it has.', 'model');
  }
  if (custom) {
    const needs: [keyof GenerateRequest, string, string][] = [
      ['negativePrompt', 'negative_prompt', 'a negative prompt'],
      ['seed', 'seed', 'a seed'],
      ['steps', 'steps', 'a step count'],
      ['guidance', 'cfg', 'a CFG scale'],
      ['sampler', 'sampler', 'a sampler'],
      ['scheduler', 'scheduler', 'a scheduler'],
    ];
    for (const [field, placeholder, what] of needs) {
      const value = request[field];
      if (value !== undefined && value !== '' && !used.has(placeholder))
        throw invalid(`This ComfyUI workflow has no {{${placeholder}}} placeholder, so it cannot take ${what}.`, field);
    }
    if ((request.loras?.length ?? 0) > 0 && !used.has('loras'))
      throw invalid(
        'This ComfyUI workflow has no {{loras}} placeholder, so it cannot take LoRAs: give a LoRA-tag node (such as ' +
          'LoraTagLoader) the text "{{loras}}", or clear the workflow to use the default graph.',
        'loras',
      );
    (request.loras ?? []).forEach((lora, index) => {
      // The text is read back as `<lora:name:weight>` tags: a name holding one of the tag's own marks would break it.
      if (LORA_TAG_UNSAFE.test(lora.name))
        throw invalid(
          `The LoRA “${lora.name}” cannot go into {{loras}}: a <lora:name:weight> tag cannot hold “:”, “<” or “>”.`,
          `loras.${index}.name`,
        );
    });
  }
  const values: WorkflowValues = {
    prompt: request.prompt,
    negative_prompt: request.negativePrompt ?? '',
    // ComfyUI seeds are 64-bit: past 2^53 a JS number would round, so the digits travel as a bigint.
    seed: typeof seed === 'string' ? seedToBigInt(seed) : seed,
    steps: request.steps ?? COMFYUI_DEFAULTS.steps,
    cfg: request.guidance ?? COMFYUI_DEFAULTS.cfg,
    width: request.width,
    height: request.height,
    batch_size: request.count,
    model,
    sampler: request.sampler ?? COMFYUI_DEFAULTS.sampler,
    scheduler: request.scheduler ?? COMFYUI_DEFAULTS.scheduler,
    // Until the upload answers, a stand-in keeps validate() network-free; generate() fills the real names.
    input_image: fromImage ? (uploaded?.image ?? 'atelier-input.png') : undefined,
    mask: op === 'inpaint' ? (uploaded?.mask ?? 'atelier-mask.png') : undefined,
    denoise: fromImage ? (request.inputImage?.strength ?? DEFAULT_STRENGTH) : 1,
    loras: loraTags(request.loras ?? []),
  };
  const filled = fillWorkflow(graph, values);
  // Added after filling: a LoRA's file name is the server's text, never a placeholder.
  return { graph: custom ? filled : withLoraChain(filled, request.loras ?? []), used, values };
}

/** A person's workflow works from an image only through its placeholders; say which one is missing. */
function checkImagePlaceholders(op: string, used: Set<string>, request: GenerateRequest): void {
  if (op === 'img2img' || op === 'inpaint') {
    if (!used.has('input_image'))
      throw invalid(
        'This ComfyUI workflow has no {{input_image}} placeholder, so it cannot work from an image: give its ' +
          'LoadImage node the image "{{input_image}}", or clear the workflow to use Atelier\'s default ' +
          'image-to-image graph.',
        'inputImage',
      );
    if (op === 'inpaint' && !used.has('mask'))
      throw invalid(
        'This ComfyUI workflow has no {{mask}} placeholder, so it cannot edit with a mask: give a LoadImageMask node ' +
          'the image "{{mask}}", or clear the workflow to use the default graph.',
        'mask',
      );
    if (request.inputImage?.strength !== undefined && !used.has('denoise'))
      throw invalid(
        'This ComfyUI workflow has no {{denoise}} placeholder, so it cannot take a strength.',
        'inputImage',
      );
  } else if (used.has('input_image') || used.has('mask')) {
    throw invalid(
      'This ComfyUI workflow loads an input image ({{input_image}} or {{mask}}): start it from an image ("Use as ' +
        'input"), or use a workflow without them for text-to-image.',
      'workflow',
    );
  }
}
