import { describe, expect, it } from 'vitest';
import { readStabilitymatrix } from '../../../../electron/library/readers/stabilitymatrix.js';
import { readTensorart } from '../../../../electron/library/readers/tensorart.js';

/** The ComfyUI graph both sites run: one checkpoint, two prompts, an empty latent, one sampler. */
const GRAPH = JSON.stringify({
  '1': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'EMS-1401459-EMS.safetensors' } },
  '2': { class_type: 'CLIPTextEncode', inputs: { clip: ['1', 1], text: 'a fox, ' } },
  '3': { class_type: 'CLIPTextEncode', inputs: { clip: ['1', 1], text: 'blur' } },
  '4': { class_type: 'EmptyLatentImage', inputs: { width: 1024, height: 1024, batch_size: 1 } },
  '5': {
    class_type: 'KSampler',
    inputs: {
      seed: 3036459311,
      steps: 25,
      cfg: 7,
      sampler_name: 'euler_ancestral',
      scheduler: 'karras',
      denoise: 1,
      model: ['1', 0],
      positive: ['2', 0],
      negative: ['3', 0],
      latent_image: ['4', 0],
    },
  },
  '6': { class_type: 'SaveImage', inputs: { images: ['5', 0] } },
});

describe('Tensor.Art reader', () => {
  const data = {
    prompt: 'a fox, #tag',
    negativePrompt: 'blur, ',
    width: 1024,
    height: 1024,
    steps: 25,
    cfgScale: 7,
    seed: '-1',
    baseModel: { label: 'v16', modelFileName: 'WAI-Nsfw-Illustrious-16', hash: 'A5F5' },
    ksamplerName: 'euler_ancestral',
    schedule: 'karras',
  };

  it('reads generation_data (ending in a NUL) as tensorart; the seed it drew for -1 comes from the graph', () => {
    const read = readTensorart(
      new Map([
        ['generation_data', `${JSON.stringify(data)}\0`],
        ['prompt', GRAPH],
      ]),
    );
    expect(read?.source).toBe('tensorart');
    expect(read?.problems).toEqual([]);
    expect(read?.settings).toMatchObject({
      prompt: 'a fox, #tag',
      negativePrompt: 'blur, ',
      seed: '3036459311',
      steps: 25,
      guidance: 7,
      sampler: 'euler_ancestral',
      scheduler: 'karras',
      model: 'WAI-Nsfw-Illustrious-16',
      modelHash: 'A5F5',
      width: 1024,
      height: 1024,
    });
  });

  it('keeps a seed it wrote itself, and says so when generation_data is no JSON', () => {
    const own = readTensorart(new Map([['generation_data', JSON.stringify({ ...data, seed: '42' })]]));
    expect(own?.settings.seed).toBe('42');
    expect(readTensorart(new Map([['generation_data', '{']]))?.problems).toContain(
      'generation_data: not a JSON object',
    );
  });
});

describe('Stability Matrix reader', () => {
  const record = {
    PositivePrompt: 'a fox, #tag\r\n',
    NegativePrompt: 'blur\r\n',
    Steps: 25,
    Sampler: 'Euler Ancestral Karras',
    CfgScale: 7,
    Seed: 3036459311,
    Width: 1536,
    Height: 1536,
    ModelName: 'wai.safetensors',
    ModelHash: 'A5F5',
  };

  it('reads the typed prompts and model from parameters-json, what ran from the graph, as stabilitymatrix', () => {
    const read = readStabilitymatrix(
      new Map([
        ['parameters-json', JSON.stringify(record)],
        ['smproj', '{}'],
        ['prompt', GRAPH],
      ]),
    );
    expect(read?.source).toBe('stabilitymatrix');
    expect(read?.settings).toMatchObject({
      prompt: 'a fox, #tag\r\n',
      negativePrompt: 'blur\r\n',
      model: 'wai.safetensors',
      modelHash: 'A5F5',
      sampler: 'euler_ancestral',
      scheduler: 'karras',
      seed: '3036459311',
      width: 1024,
      height: 1024,
    });
  });

  it('without a graph, everything comes from its own record', () => {
    const read = readStabilitymatrix(new Map([['parameters-json', JSON.stringify(record)]]));
    expect(read?.settings).toMatchObject({ sampler: 'Euler Ancestral Karras', width: 1536, steps: 25, guidance: 7 });
  });
});
