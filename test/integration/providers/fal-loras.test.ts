import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFalProvider } from '../../../electron/providers/fal/index.js';
import type { ProviderConfig } from '../../../electron/providers/types.js';
import { type FakeFal, startFakeFal } from '../../fakes/fal.js';
import { config, recordingContext, rejectsWith, request, visible } from './helpers.js';

const KEY = 'fal-fake-key-0123456789abcdef:secretpart';
const provider = createFalProvider({ firstMs: 5, maxMs: 20 });
let fake: FakeFal;
let cfg: ProviderConfig;

beforeEach(async () => {
  fake = await startFakeFal({ apiKey: KEY });
  cfg = config({ baseUrl: fake.url, apiKey: KEY });
});
afterEach(async () => {
  await fake.close();
});

const loras = [
  { name: 'https://huggingface.co/owner/ink/resolve/main/ink.safetensors', weight: 0.8 },
  { name: 'XLabs-AI/flux-RealismLora', weight: 1 },
];

describe('fal: LoRAs on FLUX-LoRA only', () => {
  it('fal-ai/flux-lora gets loras: [{path, scale}] in its input', async () => {
    await provider.generate(
      request({ model: 'fal-ai/flux-lora', width: 1024, height: 768, loras }),
      cfg,
      recordingContext(),
    );
    const submit = fake.submits()[0]!;
    expect(submit.path).toBe('/fal-ai/flux-lora');
    expect((submit.json as { loras: unknown }).loras).toEqual([
      { path: 'https://huggingface.co/owner/ink/resolve/main/ink.safetensors', scale: 0.8 },
      { path: 'XLabs-AI/flux-RealismLora', scale: 1 },
    ]);
  });

  it('says which models take LoRAs: flux-lora yes, flux/dev no', () => {
    const info = provider.capabilities({ ...cfg, model: 'fal-ai/flux-lora' });
    expect(info.loras).toBe(true);
    expect(provider.capabilities({ ...cfg, model: 'fal-ai/flux/dev' }).loras).toBeUndefined();
  });

  it('refuses LoRAs for a model without a LoRA input, and a path fal cannot fetch, before sending', async () => {
    const onDev = await rejectsWith(
      provider.generate(
        request({ model: 'fal-ai/flux/dev', width: 1024, height: 768, loras }),
        cfg,
        recordingContext(),
      ),
      'invalid_request',
    );
    expect(visible(onDev)).toContain('fal-ai/flux-lora');
    const local = await rejectsWith(
      provider.generate(
        request({ model: 'fal-ai/flux-lora', width: 1024, height: 768, loras: [{ name: 'add_detail', weight: 1 }] }),
        cfg,
        recordingContext(),
      ),
      'invalid_request',
    );
    expect(local.details).toMatchObject({ field: 'loras.0.name' });
    expect(fake.submits()).toHaveLength(0);
  });
});
