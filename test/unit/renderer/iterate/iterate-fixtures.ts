import type { ProviderInfo } from '../../../../shared/contract';

export const ALL: ProviderInfo['capabilities']['operations'] = {
  img2img: { supported: true },
  inpaint: { supported: true },
  upscale: { supported: true },
};

/** A provider that is on and ready, with every operation unless told. */
export function provider(id: string, overrides: Partial<ProviderInfo> = {}, operations = ALL): ProviderInfo {
  return {
    id,
    kind: (['builtin', 'openai', 'a1111', 'comfyui'].find((k) => id.startsWith(k)) ??
      'builtin') as ProviderInfo['kind'],
    name: id.toUpperCase(),
    enabled: true,
    configured: true,
    capabilities: {
      sizes: { min: 64, max: 2048, multipleOf: 8, presets: [[512, 512]] },
      maxCount: 8,
      seed: true,
      negativePrompt: true,
      maxPartialImages: 0,
      outputFormats: ['png'],
      operations,
    },
    models: ['sdxl'],
    status: { state: 'ready' },
    health: { state: 'up', running: [] },
    concurrency: 1,
    ...overrides,
  };
}
