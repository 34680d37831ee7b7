import { textOnlyOperations } from '../../../../shared/contract.js';
import { describe, expect, it } from 'vitest';
import type { ProviderInfo } from '../../../../shared/contract';
import { createAppStore } from '../../../../renderer/src/store/store';
import { fakeApi } from '../helpers';

const CAPS: ProviderInfo['capabilities'] = {
  sizes: { min: 64, max: 2048, multipleOf: 8, presets: [[512, 512]] },
  maxCount: 4,
  seed: true,
  negativePrompt: true,
  maxPartialImages: 0,
  outputFormats: ['png'],
  operations: textOnlyOperations('text only'),
};

function comfy(models: string[]): ProviderInfo {
  return {
    id: 'comfyui',
    name: 'ComfyUI',
    enabled: true,
    configured: true,
    kind: 'builtin',
    concurrency: 1,
    health: { state: 'unknown', running: [] },
    capabilities: CAPS,
    models,
    status: { state: 'untested' },
    ...(models.length > 0 ? { modelsListedAt: 1 } : {}),
  };
}

describe('a passing connection test brings the server’s models to the pickers', () => {
  it('lists the providers again after an ok test, so Settings and the Composer show what the test fetched', async () => {
    let listed = comfy([]);
    const fake = fakeApi({
      'providers.test': () => {
        listed = comfy(['a.safetensors', 'b.safetensors']);
        return { ok: true, reachable: true, models: listed.models, latencyMs: 1, message: 'Connected.' };
      },
      'providers.list': () => ({ providers: [listed] }),
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    store.setState({ providers: [comfy([])] });
    await store.getState().testProvider('comfyui');
    expect(store.getState().providers[0]!.models).toEqual(['a.safetensors', 'b.safetensors']);
  });

  it('a failing test lists once more for the Failing status, and the kept list stays as the engine kept it', async () => {
    const fake = fakeApi({
      'providers.test': () => ({
        ok: false,
        reachable: false,
        models: [],
        latencyMs: 1,
        message: 'Could not reach ComfyUI.',
      }),
      'providers.list': () => ({ providers: [{ ...comfy(['kept.safetensors']), status: { state: 'failing' } }] }),
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    store.setState({ providers: [comfy(['kept.safetensors'])] });
    await store.getState().testProvider('comfyui');
    expect(fake.calls.map((c) => c.channel)).toEqual(['providers.test', 'providers.list']);
    expect(store.getState().providers[0]!.models).toEqual(['kept.safetensors']);
    expect(store.getState().providers[0]!.status.state).toBe('failing');
  });
});
