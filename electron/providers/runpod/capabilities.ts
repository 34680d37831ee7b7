import type { ProviderCapabilities } from '../../../shared/contract.js';
import { capabilities as comfyCapabilities } from '../comfyui/capabilities.js';
import type { UpscalerMemo } from '../comfyui/test-connection.js';
import type { ProviderConfig } from '../types.js';

/** ComfyUI's own upscaler memo, kept empty: RunPod upscales nothing (see below). */
const NO_UPSCALERS: UpscalerMemo = new Map();

/** Base64 images ride in one /status answer, so a batch is kept small (worker-comfyui sends every image inline). */
export const MAX_COUNT = 4;

/**
 * What a ComfyUI graph on a RunPod worker can do: ComfyUI's own capabilities (its sizes, steps, samplers, and
 * img2img/inpaint by the workflow's placeholders, comfyui/capabilities.ts), without previews (worker-comfyui sends
 * none) and without upscaling (it needs the worker's upscale models, which RunPod cannot list).
 */
export function runpodCapabilities(config: ProviderConfig): ProviderCapabilities {
  const comfy = comfyCapabilities(config, NO_UPSCALERS);
  return {
    ...comfy,
    maxCount: Math.min(comfy.maxCount, MAX_COUNT),
    maxPartialImages: 0,
    operations: {
      ...comfy.operations,
      upscale: {
        supported: false,
        reason:
          'RunPod runs a ComfyUI workflow and cannot upscale here. Use ComfyUI, AUTOMATIC1111 or the built-in one.',
      },
    },
  };
}
