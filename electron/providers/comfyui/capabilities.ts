import type { OperationCapabilities, ProviderCapabilities } from '../../../shared/contract.js';
import type { ProviderConfig } from '../types.js';
import { connection } from './connection.js';
import { DEFAULT_STRENGTH } from './image-graphs.js';
import type { UpscalerMemo } from './test-connection.js';
import { type ApiGraph, checkPlaceholders, defaultWorkflow, parseWorkflow } from './workflow.js';

export const COMFYUI_DEFAULTS = { steps: 20, cfg: 7, sampler: 'euler', scheduler: 'normal' } as const;
const SAMPLERS = [
  'euler',
  'euler_ancestral',
  'heun',
  'dpm_2',
  'dpmpp_2m',
  'dpmpp_2m_sde',
  'dpmpp_sde',
  'dpmpp_3m_sde',
  'lms',
  'ddim',
  'uni_pc',
];

export function customGraph(config: ProviderConfig): ApiGraph | undefined {
  return config.workflow !== undefined && config.workflow.trim() !== '' ? parseWorkflow(config.workflow) : undefined;
}

export function upscalersOf(config: ProviderConfig, memo: UpscalerMemo): string[] | undefined {
  if (config.upscalers !== undefined) return config.upscalers;
  try {
    return memo.get(connection(config).base);
  } catch {
    return undefined;
  }
}

/** What this server can do from an image; a person's own workflow decides img2img and inpaint by its placeholders. */
function operations(config: ProviderConfig, memo: UpscalerMemo): OperationCapabilities {
  const upscalers = upscalersOf(config, memo);
  const upscale = {
    supported: true,
    reason:
      upscalers === undefined || upscalers.length === 0
        ? 'Upscales with Lanczos (ImageScaleBy); an upscale model on the server is used once "Test connection" lists ' +
          'it.'
        : 'Upscales with an upscale model (ImageUpscaleWithModel).',
    ...(upscalers === undefined ? {} : { upscalers }),
  };
  let used: Set<string>;
  try {
    used = checkPlaceholders(customGraph(config) ?? defaultWorkflow());
  } catch (error) {
    const reason = `The ComfyUI workflow in Settings cannot run: ${(error as Error).message}`;
    return { img2img: { supported: false, reason }, inpaint: { supported: false, reason }, upscale };
  }
  if (customGraph(config) === undefined) {
    return {
      img2img: {
        supported: true,
        reason: `Default image-to-image graph; strength is the sampler's denoise (${DEFAULT_STRENGTH} unless set).`,
      },
      inpaint: {
        supported: true,
        reason: 'Default graph with SetLatentNoiseMask: only the white area of the mask is repainted.',
      },
      upscale,
    };
  }
  const img2img = used.has('input_image')
    ? { supported: true }
    : {
        supported: false,
        reason:
          'The ComfyUI workflow in Settings has no {{input_image}} placeholder (a LoadImage node), so it cannot work ' +
          'from an image.',
      };
  const inpaint = !img2img.supported
    ? img2img
    : used.has('mask')
      ? { supported: true }
      : {
          supported: false,
          reason:
            'The ComfyUI workflow in Settings has no {{mask}} placeholder (a LoadImageMask node), so it cannot edit ' +
            'with a mask.',
        };
  return { img2img, inpaint, upscale };
}

/** The default graphs chain LoraLoader nodes; a person's workflow takes LoRAs only through {{loras}}. */
function takesLoras(config: ProviderConfig): boolean {
  try {
    const custom = customGraph(config);
    return custom === undefined || checkPlaceholders(custom).has('loras');
  } catch {
    return false;
  }
}

export function capabilities(config: ProviderConfig, memo: UpscalerMemo): ProviderCapabilities {
  return {
    sizes: {
      min: 64,
      max: 4096,
      multipleOf: 8,
      presets: [
        [512, 512],
        [768, 768],
        [1024, 1024],
        [832, 1216],
        [1216, 832],
      ],
    },
    maxCount: 10,
    steps: { min: 1, max: 150, default: COMFYUI_DEFAULTS.steps },
    guidance: { min: 0, max: 30, default: COMFYUI_DEFAULTS.cfg },
    seed: true,
    negativePrompt: true,
    maxPartialImages: 3,
    outputFormats: ['png'],
    operations: operations(config, memo),
    samplers: SAMPLERS,
    loras: takesLoras(config),
  };
}
