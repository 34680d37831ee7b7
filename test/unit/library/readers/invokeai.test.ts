import { describe, expect, it } from 'vitest';
import { readInvokeai } from '../../../../electron/library/readers/invokeai.js';

/** InvokeAI 4/5 `invokeai_metadata`, as its core_metadata node writes it. */
const v4 = {
  generation_mode: 'txt2img',
  positive_prompt: 'a lighthouse on a cliff, stormy sea',
  negative_prompt: 'blurry, lowres',
  width: 1024,
  height: 768,
  seed: 3361428637,
  rand_device: 'cpu',
  cfg_scale: 6.5,
  cfg_rescale_multiplier: 0,
  steps: 30,
  scheduler: 'dpmpp_2m_k',
  model: { key: '8e1a…', hash: 'blake3:f1c2d3', name: 'Juggernaut XL v9', base: 'sdxl', type: 'main' },
  loras: [{ model: { key: 'k1', hash: 'blake3:aa', name: 'ink sketch', base: 'sdxl', type: 'lora' }, weight: 0.75 }],
  app_version: '4.2.4',
};

/** InvokeAI 2.3 `sd-metadata`. */
const v2 = {
  model: 'stable diffusion',
  model_weights: 'stable-diffusion-1.5',
  model_hash: 'cc6cb27103417325ff94f52b7a5d2dde45a7515b25c255d8e396c90014281516',
  app_id: 'invoke-ai/InvokeAI',
  app_version: '2.3.5',
  image: {
    prompt: [{ prompt: 'a watercolor fox [photo, 3d render]', weight: 1 }],
    steps: 50,
    cfg_scale: 7.5,
    threshold: 0,
    perlin: 0,
    height: 768,
    width: 512,
    seed: 2980747362,
    seamless: false,
    hires_fix: false,
    type: 'txt2img',
    postprocessing: null,
    sampler: 'k_lms',
    variations: [],
  },
};

describe('InvokeAI reader', () => {
  it('reads InvokeAI 3+ invokeai_metadata, with model hash and LoRAs', () => {
    expect(readInvokeai(new Map([['invokeai_metadata', JSON.stringify(v4)]]))).toEqual({
      source: 'invokeai',
      settings: {
        prompt: 'a lighthouse on a cliff, stormy sea',
        negativePrompt: 'blurry, lowres',
        seed: '3361428637',
        steps: 30,
        guidance: 6.5,
        sampler: 'dpmpp_2m_k',
        width: 1024,
        height: 768,
        model: 'Juggernaut XL v9',
        modelHash: 'blake3:f1c2d3',
        loras: [{ name: 'ink sketch', weight: 0.75, hash: 'blake3:aa' }],
      },
      problems: [],
    });
  });

  it('reads InvokeAI 3.0 model and LoRA references (model_name, lora) and img2img strength', () => {
    const v3 = {
      ...v4,
      generation_mode: 'img2img',
      strength: 0.6,
      model: { model_name: 'sd-1.5', base_model: 'sd-1' },
      loras: [{ lora: { model_name: 'paper', base_model: 'sd-1' }, weight: 1 }],
    };
    const read = readInvokeai(new Map([['invokeai_metadata', JSON.stringify(v3)]]));
    expect(read?.settings).toMatchObject({ model: 'sd-1.5', denoise: 0.6, loras: [{ name: 'paper', weight: 1 }] });
  });

  it('reads the metadata node of invokeai_graph when the file has no invokeai_metadata', () => {
    const graph = {
      id: 'g',
      nodes: { noise: { id: 'noise', type: 'noise', seed: 1 }, meta: { id: 'meta', type: 'core_metadata', ...v4 } },
      edges: [],
    };
    expect(readInvokeai(new Map([['invokeai_graph', JSON.stringify(graph)]]))?.settings.prompt).toBe(
      v4.positive_prompt,
    );
  });

  it('reads InvokeAI 2 sd-metadata, the negative prompt in square brackets', () => {
    expect(readInvokeai(new Map([['sd-metadata', JSON.stringify(v2)]]))).toEqual({
      source: 'invokeai',
      settings: {
        prompt: 'a watercolor fox',
        negativePrompt: 'photo, 3d render',
        seed: '2980747362',
        steps: 50,
        guidance: 7.5,
        sampler: 'k_lms',
        width: 512,
        height: 768,
        model: 'stable-diffusion-1.5',
        modelHash: 'cc6cb27103417325ff94f52b7a5d2dde45a7515b25c255d8e396c90014281516',
      },
      problems: [],
    });
  });

  it('reads the Dream CLI line', () => {
    const dream = '"a watercolor fox, \\"autumn\\" [photo]" -s 50 -S 2980747362 -W 512 -H 768 -C 5.0 -A k_lms';
    expect(readInvokeai(new Map([['Dream', dream]]))).toEqual({
      source: 'invokeai',
      settings: {
        prompt: 'a watercolor fox, "autumn"',
        negativePrompt: 'photo',
        seed: '2980747362',
        steps: 50,
        guidance: 5,
        sampler: 'k_lms',
        width: 512,
        height: 768,
      },
      problems: [],
    });
  });

  it('names fields that do not parse and keeps the rest', () => {
    const read = readInvokeai(new Map([['invokeai_metadata', JSON.stringify({ ...v4, seed: -5, steps: 'many' })]]));
    expect(read?.settings.prompt).toBe(v4.positive_prompt);
    expect(read?.settings.seed).toBeUndefined();
    expect(read?.problems).toEqual(['seed: -5 could not be read', 'steps: "many" could not be read']);
  });

  it('falls back to sd-metadata when invokeai_metadata is damaged, and says so', () => {
    const read = readInvokeai(
      new Map([
        ['invokeai_metadata', '{"positive_prompt": "a'],
        ['sd-metadata', JSON.stringify(v2)],
      ]),
    );
    expect(read?.settings.prompt).toBe('a watercolor fox');
    expect(read?.problems).toEqual(['invokeai_metadata: not a JSON object']);
  });

  it('answers undefined for texts that are not InvokeAI', () => {
    expect(readInvokeai(new Map([['parameters', 'a cat\nSteps: 20, Sampler: Euler a, CFG scale: 7']]))).toBeUndefined();
    expect(readInvokeai(new Map([['prompt', '{"3": {"class_type": "KSampler", "inputs": {}}}']]))).toBeUndefined();
  });
});
