import type { ProviderCapabilities } from '../../../shared/contract.js';

/**
 * The generate presets of docs/provider-protocols.md §5 (ultra and core are endpoints, the sd3.5 names are the sd3
 * endpoint's `model` field) and `erase`, the masked edit that removes what the mask covers (edit/erase).
 */
export const STABILITY_MODELS = ['core', 'ultra', 'sd3.5-large', 'sd3.5-large-turbo', 'sd3.5-medium', 'erase'] as const;
export const DEFAULT_STABILITY_MODEL = 'core';
export const ERASE_MODEL = 'erase';

/** The upscalers of /v2beta/stable-image/upscale/{fast,conservative,creative}; creative answers an id to poll. */
export const STABILITY_UPSCALERS = ['fast', 'conservative', 'creative'] as const;
export type StabilityUpscaler = (typeof STABILITY_UPSCALERS)[number];

/** Which generate endpoint a model runs on; undefined for a name Stability does not have. */
export function endpointOf(model: string): 'ultra' | 'core' | 'sd3' | 'erase' | undefined {
  if (model === 'ultra' || model === 'core' || model === ERASE_MODEL) return model;
  // sd3.5-flash and later sd3 models go to the same endpoint by name.
  if (/^sd3(\.\d+)?(-[a-z0-9]+)*$/.test(model)) return 'sd3';
  return undefined;
}

/** The aspect ratios `aspect_ratio` takes, as width:height. */
export const ASPECT_RATIOS: readonly [number, number][] = [
  [1, 1],
  [16, 9],
  [21, 9],
  [2, 3],
  [3, 2],
  [4, 5],
  [5, 4],
  [9, 16],
  [9, 21],
];

/** Stability's own output size for each ratio above (about one megapixel), offered as presets. */
const PRESETS: [number, number][] = [
  [1024, 1024],
  [1344, 768],
  [1536, 640],
  [832, 1216],
  [1216, 832],
  [896, 1088],
  [1088, 896],
  [768, 1344],
  [640, 1536],
];

/** The supported ratio closest to width:height, compared on a log scale (2:1 and 1:2 are equally far from 1:1). */
export function aspectRatioFor(width: number, height: number): string {
  const wanted = Math.log(width / height);
  let best = ASPECT_RATIOS[0]!;
  for (const ratio of ASPECT_RATIOS) {
    if (Math.abs(Math.log(ratio[0] / ratio[1]) - wanted) < Math.abs(Math.log(best[0] / best[1]) - wanted)) best = ratio;
  }
  return `${best[0]}:${best[1]}`;
}

export const NO_IMG2IMG_CORE =
  'Stable Image Core makes images from text only: pick ultra or an sd3.5 model to work from an image.';
export const ERASE_NEEDS_MASK = 'erase removes what a mask covers: paint a mask over an image first.';

export function stabilityCapabilities(model: string): ProviderCapabilities {
  const endpoint = endpointOf(model);
  const sd3 = endpoint === 'sd3';
  return {
    sizes: { min: 64, max: 4096, multipleOf: 8, presets: PRESETS },
    maxCount: 1,
    ...(sd3 ? { guidance: { min: 1, max: 10, default: model.includes('turbo') ? 1 : 4 } } : {}),
    seed: true,
    negativePrompt: endpoint !== 'erase',
    maxPartialImages: 0,
    outputFormats: ['png'],
    operations: {
      img2img:
        endpoint === 'ultra' || sd3
          ? { supported: true }
          : { supported: false, reason: endpoint === 'erase' ? ERASE_NEEDS_MASK : NO_IMG2IMG_CORE },
      inpaint: { supported: true },
      upscale: { supported: true, upscalers: [...STABILITY_UPSCALERS] },
    },
  };
}
