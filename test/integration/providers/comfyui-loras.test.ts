import { afterEach, describe, expect, it } from 'vitest';
import { createComfyUIProvider, defaultWorkflow } from '../../../electron/providers/comfyui/index.js';
import type { ProviderConfig, SourceImage } from '../../../electron/providers/types.js';
import { type FakeComfy, startFakeComfyUI } from '../../fakes/comfyui.js';
import { config, grayMask, recordingContext, rejectsWith, request, sourcePng, visible } from './helpers.js';

const IMAGE_ID = '0190a6e2-0000-7000-8000-000000000001';
const LORAS = ['styles/add_detail.safetensors', 'ink.safetensors'];
type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

const provider = createComfyUIProvider({ cancelGraceMs: 500, historyWaitMs: 300 });
let fake: FakeComfy;
let cfg: ProviderConfig;

async function start(extraNodes: string[] = [], workflow?: string): Promise<void> {
  fake = await startFakeComfyUI({ loras: LORAS, extraNodes });
  cfg = config({
    baseUrl: fake.url,
    model: 'v1-5-pruned-emaonly.safetensors',
    ...(workflow === undefined ? {} : { workflow }),
  });
}
afterEach(async () => {
  await fake.close();
});

const sentGraph = () => (fake.promptRequests()[0]!.json as { prompt: Graph }).prompt;
const two = [
  { name: 'styles/add_detail.safetensors', weight: 0.7 },
  { name: 'ink.safetensors', weight: -0.35 },
];

/** The chain the server received: each LoraLoader's inputs, and what the sampler and encoders now read from. */
function expectChain(graph: Graph): void {
  const loaders = Object.entries(graph).filter(([, n]) => n.class_type === 'LoraLoader');
  expect(loaders.map(([, n]) => n.inputs)).toEqual([
    {
      model: ['4', 0],
      clip: ['4', 1],
      lora_name: 'styles/add_detail.safetensors',
      strength_model: 0.7,
      strength_clip: 0.7,
    },
    {
      model: [loaders[0]![0], 0],
      clip: [loaders[0]![0], 1],
      lora_name: 'ink.safetensors',
      strength_model: -0.35,
      strength_clip: -0.35,
    },
  ]);
  const last = loaders[1]![0];
  expect(graph['3']!.inputs.model).toEqual([last, 0]);
  expect(graph['6']!.inputs.clip).toEqual([last, 1]);
  expect(graph['7']!.inputs.clip).toEqual([last, 1]);
  // The VAE still comes from the checkpoint.
  expect(graph['8']!.inputs.vae).toEqual(['4', 2]);
}

describe('comfyui: LoRAs in the default graphs', () => {
  it('text to image: a LoraLoader chain between the checkpoint and the sampler and both encoders', async () => {
    await start();
    const out = await provider.generate(request({ width: 512, height: 512, loras: two }), cfg, recordingContext());
    expect(out.images).toHaveLength(1);
    expectChain(sentGraph());
  });

  it('image to image and a masked edit carry the same chain', async () => {
    await start();
    const source: SourceImage = sourcePng(64, 48);
    const mask = await grayMask(64, 48, (x) => x >= 32);
    const ctx = Object.assign(recordingContext(), { inputs: { image: source, mask } });
    const asked = request({
      width: 512,
      height: 512,
      loras: two,
      inputImage: { imageId: IMAGE_ID, strength: 0.5 },
    });
    await provider.generate(asked, cfg, ctx);
    expectChain(sentGraph());
    await fake.close();
    await start();
    await provider.generate({ ...asked, mask: { imageId: IMAGE_ID } }, cfg, ctx);
    expect(sentGraph()['13']!.class_type).toBe('SetLatentNoiseMask');
    expectChain(sentGraph());
  });

  it('a LoRA the server does not have is refused by its own validation, named', async () => {
    await start();
    const error = await rejectsWith(
      provider.generate(
        request({ width: 512, height: 512, loras: [{ name: 'gone.safetensors', weight: 1 }] }),
        cfg,
        recordingContext(),
      ),
      'provider_rejected',
    );
    expect(visible(error)).toContain('gone.safetensors');
  });

  it('without LoRAs the graph has no loader', async () => {
    await start();
    await provider.generate(request({ width: 512, height: 512 }), cfg, recordingContext());
    expect(Object.values(sentGraph()).some((n) => n.class_type === 'LoraLoader')).toBe(false);
    expect(sentGraph()['3']!.inputs.model).toEqual(['4', 0]);
  });
});

describe('comfyui: LoRAs in a person’s workflow', () => {
  const tagLoader = (text: string) =>
    JSON.stringify({
      ...defaultWorkflow(),
      '20': { class_type: 'LoraTagLoader', inputs: { model: ['4', 0], clip: ['4', 1], text } },
      '3': { ...defaultWorkflow()['3']!, inputs: { ...defaultWorkflow()['3']!.inputs, model: ['20', 0] } },
      '6': { class_type: 'CLIPTextEncode', inputs: { text: '{{prompt}}', clip: ['20', 1] } },
    });

  it('{{loras}} receives A1111-style tags, as LoRA-tag nodes read them', async () => {
    await start(['LoraTagLoader'], tagLoader('{{loras}}'));
    expect(provider.capabilities(cfg).loras).toBe(true);
    await provider.generate(request({ width: 512, height: 512, loras: two }), cfg, recordingContext());
    expect(sentGraph()['20']!.inputs.text).toBe(
      '<lora:styles/add_detail.safetensors:0.7> <lora:ink.safetensors:-0.35>',
    );
    // The person's graph is theirs: no loader chain is added.
    expect(Object.values(sentGraph()).some((n) => n.class_type === 'LoraLoader')).toBe(false);
  });

  it('{{loras}} refuses a name its tags cannot hold, before sending', async () => {
    await start(['LoraTagLoader'], tagLoader('{{loras}}'));
    const error = await rejectsWith(
      provider.generate(
        request({ width: 512, height: 512, loras: [{ name: 'a>b.safetensors', weight: 1 }] }),
        cfg,
        recordingContext(),
      ),
      'invalid_request',
    );
    expect(error.details).toMatchObject({ field: 'loras.0.name' });
    expect(fake.promptRequests()).toHaveLength(0);
  });

  it('{{loras}} is empty when the request has none', async () => {
    await start(['LoraTagLoader'], tagLoader('{{loras}}'));
    await provider.generate(request({ width: 512, height: 512 }), cfg, recordingContext());
    expect(sentGraph()['20']!.inputs.text).toBe('');
  });

  it('a workflow without {{loras}} given LoRAs is refused before anything is sent', async () => {
    await start([], JSON.stringify(defaultWorkflow()));
    expect(provider.capabilities(cfg).loras).toBe(false);
    const error = await rejectsWith(
      provider.generate(request({ width: 512, height: 512, loras: two }), cfg, recordingContext()),
      'invalid_request',
    );
    expect(visible(error)).toContain('has no {{loras}}');
    expect(error.details).toMatchObject({ field: 'loras' });
    expect(fake.promptRequests()).toHaveLength(0);
  });
});
