import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRunPodProvider } from '../../../electron/providers/runpod/index.js';
import type { ProviderConfig } from '../../../electron/providers/types.js';
import { type FakeRunPod, startFakeRunPod } from '../../fakes/runpod.js';
import { config, recordingContext, request } from './helpers.js';

const KEY = 'rpa_FAKEKEY0123456789abcdef';
const provider = createRunPodProvider({ firstMs: 5, maxMs: 20 });
let fake: FakeRunPod;
let cfg: ProviderConfig;
type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

beforeEach(async () => {
  fake = await startFakeRunPod({ apiKey: KEY });
  cfg = config({ baseUrl: fake.endpoint, apiKey: KEY, model: 'sd_xl_base_1.0.safetensors' });
});
afterEach(async () => {
  await fake.close();
});

describe('runpod: LoRAs ride in the ComfyUI graph', () => {
  it('the /run workflow carries the LoraLoader chain, the sampler reading the last loader', async () => {
    expect(provider.capabilities(cfg).loras).toBe(true);
    fake.setScenario({ kind: 'success', queuedPolls: 0, runningPolls: 0 });
    await provider.generate(
      request({ width: 64, height: 48, loras: [{ name: 'detail.safetensors', weight: 0.4 }] }),
      cfg,
      recordingContext(),
    );
    const graph = (fake.submits()[0]!.json as { input: { workflow: Graph } }).input.workflow;
    const loaders = Object.entries(graph).filter(([, n]) => n.class_type === 'LoraLoader');
    expect(loaders.map(([, n]) => n.inputs)).toEqual([
      { model: ['4', 0], clip: ['4', 1], lora_name: 'detail.safetensors', strength_model: 0.4, strength_clip: 0.4 },
    ]);
    expect(graph['3']!.inputs.model).toEqual([loaders[0]![0], 0]);
  });
});
