import { describe, expect, it } from 'vitest';
import { readComfyui } from '../../../../electron/library/readers/comfyui.js';
import type { TextMap } from '../../../../electron/library/readers/types.js';

type Api = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

const node = (class_type: string, inputs: Record<string, unknown>) => ({ class_type, inputs });

/** ComfyUI's default txt2img graph, as SaveImage writes it into the `prompt` chunk. */
function defaultGraph(): Api {
  return {
    '3': node('KSampler', {
      seed: 156680208700286,
      steps: 20,
      cfg: 8,
      sampler_name: 'euler',
      scheduler: 'normal',
      denoise: 1,
      model: ['4', 0],
      positive: ['6', 0],
      negative: ['7', 0],
      latent_image: ['5', 0],
    }),
    '4': node('CheckpointLoaderSimple', { ckpt_name: 'v1-5-pruned-emaonly.safetensors' }),
    '5': node('EmptyLatentImage', { width: 512, height: 768, batch_size: 1 }),
    '6': node('CLIPTextEncode', { text: 'beautiful scenery nature glass bottle landscape', clip: ['4', 1] }),
    '7': node('CLIPTextEncode', { text: 'text, watermark', clip: ['4', 1] }),
    '8': node('VAEDecode', { samples: ['3', 0], vae: ['4', 2] }),
    '9': node('SaveImage', { filename_prefix: 'ComfyUI', images: ['8', 0] }),
  };
}

const png = (graph: Api | string, workflow?: unknown): TextMap => {
  const texts = new Map([['prompt', typeof graph === 'string' ? graph : JSON.stringify(graph)]]);
  if (workflow !== undefined) texts.set('workflow', JSON.stringify(workflow));
  return texts;
};

describe('ComfyUI reader', () => {
  it('reads the default txt2img graph from the PNG prompt chunk', () => {
    const read = readComfyui(png(defaultGraph()));
    expect(read).toEqual({
      source: 'comfyui',
      settings: {
        prompt: 'beautiful scenery nature glass bottle landscape',
        negativePrompt: 'text, watermark',
        seed: '156680208700286',
        steps: 20,
        guidance: 8,
        sampler: 'euler',
        scheduler: 'normal',
        denoise: 1,
        model: 'v1-5-pruned-emaonly.safetensors',
        width: 512,
        height: 768,
      },
      problems: [],
    });
  });

  it('keeps a 64-bit seed exactly (18446744073709551615)', () => {
    const text = JSON.stringify(defaultGraph()).replace('156680208700286', '18446744073709551615');
    expect(readComfyui(png(text))?.settings.seed).toBe('18446744073709551615');
  });

  it('reads a graph with NaN and Infinity in it, naming the field that held NaN', () => {
    const text = JSON.stringify(defaultGraph())
      .replace('"cfg":8', '"cfg":NaN')
      .replace('"denoise":1', '"denoise":Infinity');
    const read = readComfyui(png(text));
    expect(read?.settings.prompt).toBe('beautiful scenery nature glass bottle landscape');
    expect(read?.settings.steps).toBe(20);
    expect(read?.settings.guidance).toBeUndefined();
    expect(read?.problems).toEqual([
      'KSampler #3 cfg: "NaN" could not be read',
      'KSampler #3 denoise: "Infinity" could not be read',
    ]);
  });

  it('leaves NaN and Infinity inside strings alone (a prompt may say them)', () => {
    const graph = defaultGraph();
    graph['6']!.inputs['text'] = 'NaN, "Infinity" -Infinity mirrors';
    const read = readComfyui(png(JSON.stringify(graph).replace('"cfg":8', '"cfg":NaN')));
    expect(read?.settings.prompt).toBe('NaN, "Infinity" -Infinity mirrors');
  });

  it('reads SDXL text_g and text_l, both kept', () => {
    const graph = defaultGraph();
    graph['6'] = node('CLIPTextEncodeSDXL', {
      text_g: 'a castle on a hill',
      text_l: 'oil painting',
      width: 1024,
      height: 1024,
    });
    graph['7'] = node('CLIPTextEncodeSDXL', { text_g: 'blurry', text_l: 'blurry' });
    const read = readComfyui(png(graph));
    expect(read?.settings.prompt).toBe('a castle on a hill\noil painting');
    expect(read?.settings.negativePrompt).toBe('blurry');
  });

  it('reads a Flux graph: UNETLoader, clip_l/t5xxl, FluxGuidance (as distilledGuidance), SamplerCustomAdvanced', () => {
    const graph: Api = {
      '6': node('CLIPTextEncodeFlux', {
        clip_l: 'cat',
        t5xxl: 'a photo of a cat on a windowsill',
        guidance: 3.5,
        clip: ['11', 0],
      }),
      '26': node('FluxGuidance', { guidance: 2.5, conditioning: ['6', 0] }),
      '12': node('UNETLoader', { unet_name: 'flux1-dev.safetensors', weight_dtype: 'default' }),
      '30': node('ModelSamplingFlux', {
        max_shift: 1.15,
        base_shift: 0.5,
        width: 1024,
        height: 1024,
        model: ['12', 0],
      }),
      '22': node('BasicGuider', { model: ['30', 0], conditioning: ['26', 0] }),
      '25': node('RandomNoise', { noise_seed: 219670278747233 }),
      '16': node('KSamplerSelect', { sampler_name: 'euler' }),
      '17': node('BasicScheduler', { scheduler: 'simple', steps: 28, denoise: 1, model: ['30', 0] }),
      '27': node('EmptySD3LatentImage', { width: 1024, height: 768, batch_size: 1 }),
      '13': node('SamplerCustomAdvanced', {
        noise: ['25', 0],
        guider: ['22', 0],
        sampler: ['16', 0],
        sigmas: ['17', 0],
        latent_image: ['27', 0],
      }),
      '8': node('VAEDecode', { samples: ['13', 0], vae: ['10', 0] }),
      '9': node('SaveImage', { images: ['8', 0] }),
    };
    expect(readComfyui(png(graph))).toEqual({
      source: 'comfyui',
      settings: {
        prompt: 'a photo of a cat on a windowsill\ncat',
        seed: '219670278747233',
        steps: 28,
        distilledGuidance: 2.5,
        sampler: 'euler',
        scheduler: 'simple',
        denoise: 1,
        model: 'flux1-dev.safetensors',
        width: 1024,
        height: 768,
      },
      problems: [],
    });
  });

  it('reads the LoRAs of a LoraLoader chain, in the order they are applied', () => {
    const graph = defaultGraph();
    graph['10'] = node('LoraLoader', {
      lora_name: 'ink.safetensors',
      strength_model: 0.8,
      strength_clip: 1,
      model: ['4', 0],
      clip: ['4', 1],
    });
    graph['11'] = node('LoraLoader', {
      lora_name: 'paper.safetensors',
      strength_model: 0.5,
      strength_clip: 1,
      model: ['10', 0],
      clip: ['10', 1],
    });
    graph['3']!.inputs['model'] = ['11', 0];
    const read = readComfyui(png(graph));
    expect(read?.settings.model).toBe('v1-5-pruned-emaonly.safetensors');
    expect(read?.settings.loras).toEqual([
      { name: 'ink.safetensors', weight: 0.8 },
      { name: 'paper.safetensors', weight: 0.5 },
    ]);
  });

  it('takes the first pass as the settings and records the hires fix after it as a pass', () => {
    const graph = defaultGraph();
    graph['10'] = node('LatentUpscale', {
      upscale_method: 'nearest-exact',
      width: 1024,
      height: 1536,
      crop: 'disabled',
      samples: ['3', 0],
    });
    graph['11'] = node('KSampler', {
      seed: 42,
      steps: 14,
      cfg: 8,
      sampler_name: 'dpmpp_2m',
      scheduler: 'karras',
      denoise: 0.5,
      model: ['4', 0],
      positive: ['6', 0],
      negative: ['7', 0],
      latent_image: ['10', 0],
    });
    graph['8']!.inputs['samples'] = ['11', 0];
    const read = readComfyui(png(graph));
    expect(read?.settings).toMatchObject({ seed: '156680208700286', steps: 20, width: 512, height: 768 });
    expect(read?.passes).toHaveLength(1);
    expect(read?.passes?.[0]).toMatchObject({ role: 'hires', classType: 'KSampler' });
    expect(read?.passes?.[0]?.settings).toMatchObject({
      seed: '42',
      steps: 14,
      denoise: 0.5,
      width: 1024,
      height: 1536,
      sampler: 'dpmpp_2m',
    });
    expect(read?.alternatives).toBeUndefined();
  });

  it('takes the sampler feeding SaveImage even when a later one builds on it and goes nowhere', () => {
    const graph = defaultGraph();
    graph['10'] = node('LatentUpscale', {
      upscale_method: 'nearest-exact',
      width: 1024,
      height: 1536,
      crop: 'disabled',
      samples: ['3', 0],
    });
    graph['11'] = node('KSampler', {
      seed: 42,
      steps: 14,
      model: ['4', 0],
      positive: ['6', 0],
      negative: ['7', 0],
      latent_image: ['10', 0],
    });
    graph['12'] = node('VAEDecode', { samples: ['11', 0], vae: ['4', 2] });
    const read = readComfyui(png(graph));
    expect(read?.settings.seed).toBe('156680208700286');
    expect(read?.alternatives?.map((s) => s.seed)).toEqual(['42']);
  });

  it('reads the size a LatentUpscaleBy hires pass makes', () => {
    const graph = defaultGraph();
    graph['10'] = node('LatentUpscaleBy', { upscale_method: 'nearest-exact', scale_by: 1.5, samples: ['3', 0] });
    graph['11'] = node('KSampler', {
      seed: 42,
      steps: 14,
      model: ['4', 0],
      positive: ['6', 0],
      negative: ['7', 0],
      latent_image: ['10', 0],
    });
    graph['8']!.inputs['samples'] = ['11', 0];
    const read = readComfyui(png(graph));
    expect([read?.passes?.[0]?.settings.width, read?.passes?.[0]?.settings.height]).toEqual([768, 1152]);
    expect([read?.settings.width, read?.settings.height]).toEqual([512, 768]);
  });

  it('without an output node, traces the longest chain: its first sampler is the settings, the next a pass', () => {
    const graph = defaultGraph();
    // Node "2" sorts first by id but builds on "3": it is the last in the chain.
    graph['2'] = node('KSamplerAdvanced', {
      noise_seed: 7,
      steps: 10,
      cfg: 5,
      sampler_name: 'euler',
      scheduler: 'normal',
      model: ['4', 0],
      positive: ['6', 0],
      negative: ['7', 0],
      latent_image: ['3', 0],
    });
    delete graph['9'];
    const read = readComfyui(png(graph));
    expect(read?.settings.seed).toBe('156680208700286');
    expect(read?.settings.width).toBe(512);
    expect(read?.passes?.map((p) => p.settings.seed)).toEqual(['7']);
    expect(read?.alternatives).toBeUndefined();
  });

  it('joins area prompts (ConditioningSetArea + ConditioningCombine), keeping each', () => {
    const graph = defaultGraph();
    graph['20'] = node('CLIPTextEncode', { text: 'a red dragon', clip: ['4', 1] });
    graph['21'] = node('ConditioningSetArea', {
      width: 256,
      height: 512,
      x: 0,
      y: 0,
      strength: 1,
      conditioning: ['6', 0],
    });
    graph['22'] = node('ConditioningSetArea', {
      width: 256,
      height: 512,
      x: 256,
      y: 0,
      strength: 1,
      conditioning: ['20', 0],
    });
    graph['23'] = node('ConditioningCombine', { conditioning_1: ['21', 0], conditioning_2: ['22', 0] });
    graph['3']!.inputs['positive'] = ['23', 0];
    expect(readComfyui(png(graph))?.settings.prompt).toBe(
      'beautiful scenery nature glass bottle landscape\na red dragon',
    );
  });

  it('reads a seed and a prompt that are links to primitive nodes', () => {
    const graph = defaultGraph();
    graph['30'] = node('PrimitiveInt', { value: 1234567 });
    graph['31'] = node('PrimitiveString', { value: 'a lighthouse at dusk' });
    graph['3']!.inputs['seed'] = ['30', 0];
    graph['6']!.inputs['text'] = ['31', 0];
    const read = readComfyui(png(graph));
    expect(read?.settings.seed).toBe('1234567');
    expect(read?.settings.prompt).toBe('a lighthouse at dusk');
  });

  it('survives a cycle and names a dangling link, keeping the rest', () => {
    const graph = defaultGraph();
    graph['40'] = node('ConditioningCombine', { conditioning_1: ['41', 0], conditioning_2: ['6', 0] });
    // Four links back into the loop at each step: a walk that revisits nodes would never finish.
    graph['41'] = node('ConditioningCombine', {
      conditioning_1: ['40', 0],
      conditioning_2: ['41', 0],
      conditioning_3: ['40', 0],
      conditioning_4: ['41', 0],
    });
    graph['3']!.inputs['positive'] = ['40', 0];
    graph['3']!.inputs['model'] = ['3', 0];
    graph['5']!.inputs = { samples: ['5', 0] };
    graph['7']!.inputs['text'] = ['99', 0];
    const read = readComfyui(png(graph));
    expect(read?.settings.prompt).toBe('beautiful scenery nature glass bottle landscape');
    expect(read?.settings.negativePrompt).toBeUndefined();
    expect(read?.settings.model).toBeUndefined();
    expect(read?.settings.steps).toBe(20);
    expect(read?.problems).toEqual(['CLIPTextEncode #7: text links to missing node 99']);
  });

  it('reads the graphs from WebP EXIF Make/Model and from a JPEG UserComment', () => {
    const graph = JSON.stringify(defaultGraph());
    const webp = new Map([
      ['exif:Make', 'workflow:{"nodes":[],"links":[]}'],
      ['exif:Model', `prompt:${graph}`],
    ]);
    expect(readComfyui(webp)?.settings.seed).toBe('156680208700286');
    const jpeg = new Map([['exif:UserComment', `{"prompt":${graph},"workflow":{"nodes":[]}}`]]);
    expect(readComfyui(jpeg)?.settings.model).toBe('v1-5-pruned-emaonly.safetensors');
  });

  it('reads a file that carries only the UI workflow, widget values by position and a PrimitiveNode seed', () => {
    const workflow = {
      nodes: [
        {
          id: 3,
          type: 'KSampler',
          inputs: [
            { name: 'model', link: 1 },
            { name: 'positive', link: 4 },
            { name: 'negative', link: 6 },
            { name: 'latent_image', link: 2 },
            { name: 'seed', widget: { name: 'seed' }, link: 9 },
          ],
          widgets_values: [1, 'randomize', 25, 6.5, 'dpmpp_2m', 'karras', 1],
        },
        { id: 4, type: 'CheckpointLoaderSimple', inputs: [], widgets_values: ['sdxl.safetensors'] },
        { id: 5, type: 'EmptyLatentImage', inputs: [], widgets_values: [832, 1216, 1] },
        { id: 6, type: 'CLIPTextEncode', inputs: [{ name: 'clip', link: 3 }], widgets_values: ['a fox in the snow'] },
        { id: 7, type: 'CLIPTextEncode', inputs: [{ name: 'clip', link: 5 }], widgets_values: ['lowres'] },
        { id: 10, type: 'Reroute', inputs: [{ name: '', link: 7 }] },
        { id: 12, type: 'PrimitiveNode', inputs: [], widgets_values: ['18446744073709551615', 'fixed'] },
      ],
      links: [
        [1, 10, 0, 3, 0, 'MODEL'],
        [7, 4, 0, 10, 0, '*'],
        [2, 5, 0, 3, 3, 'LATENT'],
        [4, 6, 0, 3, 1, 'CONDITIONING'],
        [6, 7, 0, 3, 2, 'CONDITIONING'],
        [9, 12, 0, 3, 4, 'INT'],
      ],
    };
    const read = readComfyui(
      new Map([['workflow', JSON.stringify(workflow).replace('"18446744073709551615"', '18446744073709551615')]]),
    );
    expect(read?.settings).toEqual({
      prompt: 'a fox in the snow',
      negativePrompt: 'lowres',
      seed: '18446744073709551615',
      steps: 25,
      guidance: 6.5,
      sampler: 'dpmpp_2m',
      scheduler: 'karras',
      denoise: 1,
      model: 'sdxl.safetensors',
      width: 832,
      height: 1216,
    });
  });

  it('answers undefined for texts that are not ComfyUI graphs (EasyDiffusion prompt, A1111 parameters)', () => {
    expect(
      readComfyui(
        new Map([
          ['prompt', 'a cat'],
          ['negative_prompt', 'dog'],
        ]),
      ),
    ).toBeUndefined();
    expect(readComfyui(new Map([['parameters', 'a cat\nSteps: 20, Sampler: Euler a, CFG scale: 7']]))).toBeUndefined();
    expect(readComfyui(new Map([['prompt', '{"a": 1}']]))).toBeUndefined();
  });

  it('claims a truncated graph, names it and reads nothing from it', () => {
    const text = JSON.stringify(defaultGraph()).slice(0, 200);
    const read = readComfyui(png(text));
    expect(read?.settings).toEqual({});
    expect(read?.problems).toHaveLength(1);
    expect(read?.problems[0]).toMatch(/^prompt: not valid JSON/);
  });
});
