import { describe, expect, it } from 'vitest';
import { MAX_MODELS_WITH_CAPABILITIES, type ProviderCapabilities } from '../../../shared/contract.js';
import { createProviderRegistry } from '../../../electron/engine/provider-registry.js';
import type { SettingsService, StoredProviderSettings } from '../../../electron/engine/settings-service.js';
import { createFalProvider } from '../../../electron/providers/fal/index.js';
import type { Provider } from '../../../electron/providers/types.js';

/** Only what the registry reads: stored settings per provider and a key in the keyring. */
function settingsOf(providers: Record<string, Partial<StoredProviderSettings>>): SettingsService {
  const stored = (id: string): StoredProviderSettings | undefined =>
    providers[id] === undefined
      ? undefined
      : { enabled: true, timeoutMs: 10_000, concurrency: 1, hasApiKey: true, hasPassword: false, ...providers[id] };
  return {
    current: () => ({ instances: [] }) as unknown as ReturnType<SettingsService['current']>,
    provider: stored,
    secret: async () => 'fal-key-never-sent',
  } as unknown as SettingsService;
}

const BASE: ProviderCapabilities = {
  sizes: { min: 64, max: 2048, multipleOf: 8, presets: [[1024, 1024]] },
  maxCount: 4,
  seed: true,
  negativePrompt: false,
  maxPartialImages: 0,
  outputFormats: ['png'],
  operations: {
    img2img: { supported: false, reason: 'Text only.' },
    inpaint: { supported: false, reason: 'No masks.' },
    upscale: { supported: false, reason: 'No upscale.' },
  },
};

/** A provider listing `count` models, model-<n> making at most n+1 images (every one differs from the default). */
function manyModels(count: number): { provider: Provider; asked: string[] } {
  const models = Array.from({ length: count }, (_, n) => `model-${n}`);
  const asked: string[] = [];
  const provider = {
    id: 'many',
    name: 'Many',
    capabilities: (config: { model?: string }) => {
      if (config.model === undefined) return BASE;
      asked.push(config.model);
      return { ...BASE, maxCount: Number(config.model.slice('model-'.length)) + 1000 };
    },
    knownModels: () => models,
    isConfigured: () => true,
  } as unknown as Provider;
  return { provider, asked };
}

describe('ProviderInfo.capabilitiesByModel', () => {
  it('fal.ai lists each preset that differs from its default model, offline: schnell’s steps, Recraft without a seed, the edit model edits', async () => {
    const fal = createFalProvider();
    const registry = createProviderRegistry(
      [{ provider: fal, defaults: { enabled: true, timeoutMs: 10_000, concurrency: 1 } }],
      settingsOf({ fal: { baseUrl: 'http://127.0.0.1:9' } }),
    );
    const info = await registry.info('fal');
    const byModel = info.capabilitiesByModel ?? {};
    expect(info.capabilities.steps).toEqual({ min: 1, max: 50, default: 28 });
    // The default model's own capabilities are `capabilities`: not sent twice.
    expect(byModel['fal-ai/flux/dev']).toBeUndefined();
    expect(byModel['fal-ai/flux/schnell']?.steps).toEqual({ min: 1, max: 12, default: 4 });
    expect(byModel['fal-ai/flux/schnell']?.guidance).toBeUndefined();
    expect(byModel['fal-ai/recraft-v3']).toMatchObject({ seed: false, maxCount: 1 });
    expect(byModel['fal-ai/ideogram/v2']).toMatchObject({ negativePrompt: true, maxCount: 1 });
    expect(byModel['fal-ai/flux/dev/image-to-image']?.operations.img2img.supported).toBe(true);
    // The iterate code's map is the operations part of the same answer.
    expect(info.operationsByModel?.['fal-ai/flux/dev/image-to-image']).toEqual(
      byModel['fal-ai/flux/dev/image-to-image']?.operations,
    );
    expect(JSON.stringify(info)).not.toContain('fal-key-never-sent');
  });

  it('a model typed in Settings is the default: the presets are listed against its capabilities', async () => {
    const fal = createFalProvider();
    const registry = createProviderRegistry(
      [{ provider: fal, defaults: { enabled: true, timeoutMs: 10_000, concurrency: 1 } }],
      settingsOf({ fal: { model: 'fal-ai/some-lab/new-model' } }),
    );
    const info = await registry.info('fal');
    expect(info.models).toContain('fal-ai/some-lab/new-model');
    expect(info.capabilities.negativePrompt).toBe(true);
    expect(info.capabilitiesByModel?.['fal-ai/some-lab/new-model']).toBeUndefined();
    expect(info.capabilitiesByModel?.['fal-ai/flux/dev']?.negativePrompt).toBe(false);
  });

  it('only the first 200 models are looked at, so a server listing thousands keeps the answer small', async () => {
    const { provider, asked } = manyModels(1000);
    const registry = createProviderRegistry(
      [{ provider, defaults: { enabled: true, timeoutMs: 10_000, concurrency: 1 } }],
      settingsOf({ many: {} }),
    );
    const info = await registry.info('many');
    const keys = Object.keys(info.capabilitiesByModel ?? {});
    expect(MAX_MODELS_WITH_CAPABILITIES).toBe(200);
    expect(keys).toHaveLength(200);
    expect(keys[0]).toBe('model-0');
    expect(keys.at(-1)).toBe('model-199');
    expect(asked).toHaveLength(200);
    expect(info.models).toHaveLength(1000);
  });

  it('a provider whose models all do the same sends no map at all', async () => {
    const provider = {
      ...manyModels(5).provider,
      capabilities: () => BASE,
    } as Provider;
    const registry = createProviderRegistry(
      [{ provider, defaults: { enabled: true, timeoutMs: 10_000, concurrency: 1 } }],
      settingsOf({ many: {} }),
    );
    const info = await registry.info('many');
    expect(info.capabilitiesByModel).toBeUndefined();
    expect(info.operationsByModel).toBeUndefined();
  });
});
