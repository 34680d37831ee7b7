import { describe, expect, it } from 'vitest';
import { readComfyui } from '../../../../electron/library/readers/comfyui.js';
import type { ComfyNodeRule } from '../../../../electron/library/readers/comfyui-node-table.js';
import type { GeneratorRead } from '../../../../electron/library/readers/types.js';

type Api = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

const node = (class_type: string, inputs: Record<string, unknown>) => ({ class_type, inputs });

const read = (graph: Api, rules?: ComfyNodeRule[]): GeneratorRead | undefined =>
  readComfyui(
    new Map([['prompt', JSON.stringify(graph)]]),
    rules === undefined ? undefined : { comfyNodeRules: rules },
  );

const ksampler = (seed: number, steps: number, model: string, latent: string, extra: Record<string, unknown> = {}) =>
  node('KSampler', {
    seed,
    steps,
    cfg: 7,
    sampler_name: 'euler',
    scheduler: 'normal',
    denoise: 1,
    model: [model, 0],
    positive: ['6', 0],
    negative: ['7', 0],
    latent_image: [latent, 0],
    ...extra,
  });

/** Loader 4, prompts 6/7, empty latent 5, one sampler 3, decode 8, save 9. */
function base(): Api {
  return {
    '3': ksampler(111, 30, '4', '5'),
    '4': node('CheckpointLoaderSimple', { ckpt_name: 'base.safetensors' }),
    '5': node('EmptyLatentImage', { width: 832, height: 1216, batch_size: 1 }),
    '6': node('CLIPTextEncode', { text: 'a lighthouse at dusk', clip: ['4', 1] }),
    '7': node('CLIPTextEncode', { text: 'blurry', clip: ['4', 1] }),
    '8': node('VAEDecode', { samples: ['3', 0], vae: ['4', 2] }),
    '9': node('SaveImage', { filename_prefix: 'x', images: ['8', 0] }),
  };
}

describe('ComfyUI tracer: passes', () => {
  it('SDXL base + refiner: the base pass is the settings (model, seed), the refiner a pass after it', () => {
    const graph = base();
    graph['3'] = node('KSamplerAdvanced', {
      add_noise: 'enable',
      noise_seed: 424242,
      steps: 25,
      cfg: 8,
      sampler_name: 'euler',
      scheduler: 'normal',
      start_at_step: 0,
      end_at_step: 20,
      model: ['4', 0],
      positive: ['6', 0],
      negative: ['7', 0],
      latent_image: ['5', 0],
    });
    graph['12'] = node('CheckpointLoaderSimple', { ckpt_name: 'refiner.safetensors' });
    graph['11'] = node('KSamplerAdvanced', {
      add_noise: 'disable',
      noise_seed: 0,
      steps: 25,
      cfg: 8,
      sampler_name: 'euler',
      scheduler: 'normal',
      start_at_step: 20,
      model: ['12', 0],
      positive: ['6', 0],
      negative: ['7', 0],
      latent_image: ['3', 0],
    });
    graph['8']!.inputs['samples'] = ['11', 0];
    const result = read(graph);
    expect(result?.settings).toMatchObject({ model: 'base.safetensors', seed: '424242', steps: 25 });
    expect(result?.passes?.map((p) => [p.role, p.classType, p.settings.model, p.settings.seed])).toEqual([
      ['refiner', 'KSamplerAdvanced', 'refiner.safetensors', '0'],
    ]);
    expect(result?.alternatives).toBeUndefined();
  });

  it("two KSamplers: the first pass's steps and seed, the second recorded as a pass", () => {
    const graph = base();
    graph['11'] = ksampler(222, 12, '4', '3', { denoise: 0.4 });
    graph['8']!.inputs['samples'] = ['11', 0];
    const result = read(graph);
    expect(result?.settings).toMatchObject({ seed: '111', steps: 30, width: 832, height: 1216 });
    expect(result?.passes).toHaveLength(1);
    expect(result?.passes?.[0]?.settings).toMatchObject({ seed: '222', steps: 12, denoise: 0.4 });
  });

  it('hires fix, UltimateSDUpscale and FaceDetailer are passes in the order they ran', () => {
    const graph = base();
    graph['10'] = node('LatentUpscaleBy', { upscale_method: 'nearest-exact', scale_by: 1.5, samples: ['3', 0] });
    graph['11'] = ksampler(222, 12, '4', '10', { denoise: 0.5 });
    graph['8']!.inputs['samples'] = ['11', 0];
    graph['20'] = node('UltimateSDUpscale', {
      image: ['8', 0],
      model: ['4', 0],
      positive: ['6', 0],
      negative: ['7', 0],
      upscale_by: 2,
      seed: 333,
      steps: 8,
      cfg: 5,
      sampler_name: 'dpmpp_2m',
      scheduler: 'karras',
      denoise: 0.2,
    });
    graph['21'] = node('FaceDetailer', {
      image: ['20', 0],
      model: ['4', 0],
      positive: ['6', 0],
      negative: ['7', 0],
      seed: 444,
      steps: 20,
      cfg: 6,
      sampler_name: 'euler_ancestral',
      scheduler: 'simple',
      denoise: 0.45,
    });
    graph['9']!.inputs['images'] = ['21', 0];
    const result = read(graph);
    expect(result?.settings).toMatchObject({ seed: '111', steps: 30, width: 832, height: 1216 });
    expect(result?.passes?.map((p) => [p.role, p.classType, p.settings.seed, p.settings.steps])).toEqual([
      ['hires', 'KSampler', '222', 12],
      ['upscale', 'UltimateSDUpscale', '333', 8],
      ['detailer', 'FaceDetailer', '444', 20],
    ]);
    expect(result?.passes?.[0]?.settings).toMatchObject({ width: 1248, height: 1824 });
  });

  it('walks back through nodes it does not know by their image or latent input', () => {
    const graph = base();
    graph['60'] = node('SomeonesColorFix', { strength: 0.3, input_image: ['8', 0] });
    graph['61'] = node('SomeonesLatentNoise', { amount: 0.1, source_latent: ['3', 0] });
    graph['11'] = ksampler(222, 12, '4', '61', { denoise: 0.4 });
    graph['62'] = node('VAEDecode', { samples: ['11', 0] });
    graph['63'] = node('SomeonesColorFix', { strength: 0.3, input_image: ['62', 0] });
    graph['9']!.inputs['images'] = ['63', 0];
    const result = read(graph);
    expect(result?.settings.seed).toBe('111');
    expect(result?.passes?.map((p) => p.settings.seed)).toEqual(['222']);
  });

  it('an img2img first pass: the sampler fed by the loaded image is the settings', () => {
    const graph = base();
    graph['30'] = node('LoadImage', { image: 'in.png' });
    graph['31'] = node('VAEEncode', { pixels: ['30', 0], vae: ['4', 2] });
    graph['3']!.inputs['latent_image'] = ['31', 0];
    graph['3']!.inputs['denoise'] = 0.6;
    delete graph['5'];
    const result = read(graph);
    expect(result?.settings).toMatchObject({ seed: '111', denoise: 0.6 });
    expect(result?.passes).toBeUndefined();
  });

  it('two independent chains: the saved one is the settings, the other an alternative', () => {
    const graph = base();
    graph['40'] = node('CheckpointLoaderSimple', { ckpt_name: 'other.safetensors' });
    graph['41'] = ksampler(999, 10, '40', '5');
    graph['42'] = node('VAEDecode', { samples: ['41', 0], vae: ['40', 2] });
    graph['43'] = node('PreviewImage', { images: ['42', 0] });
    const result = read(graph);
    expect(result?.settings.seed).toBe('111');
    expect(result?.alternatives?.map((s) => [s.seed, s.model])).toEqual([['999', 'other.safetensors']]);
  });

  it('Flux with SamplerCustomAdvanced and CFGGuider keeps the CFG and the Flux guidance side by side', () => {
    const graph: Api = {
      '10': node('UNETLoader', { unet_name: 'flux1-krea-dev.safetensors', weight_dtype: 'default' }),
      '6': node('CLIPTextEncode', { text: 'a fox in snow', clip: ['11', 0] }),
      '7': node('CLIPTextEncode', { text: '', clip: ['11', 0] }),
      '26': node('FluxGuidance', { guidance: 4.5, conditioning: ['6', 0] }),
      '22': node('CFGGuider', { cfg: 1.5, model: ['10', 0], positive: ['26', 0], negative: ['7', 0] }),
      '25': node('RandomNoise', { noise_seed: 31337 }),
      '16': node('KSamplerSelect', { sampler_name: 'dpmpp_2m' }),
      '17': node('BasicScheduler', { scheduler: 'beta', steps: 28, denoise: 1, model: ['10', 0] }),
      '27': node('EmptySD3LatentImage', { width: 1024, height: 1536, batch_size: 1 }),
      '13': node('SamplerCustomAdvanced', {
        noise: ['25', 0],
        guider: ['22', 0],
        sampler: ['16', 0],
        sigmas: ['17', 0],
        latent_image: ['27', 0],
      }),
      '8': node('VAEDecode', { samples: ['13', 0], vae: ['12', 0] }),
      '9': node('SaveImage', { images: ['8', 0] }),
    };
    expect(read(graph)?.settings).toEqual({
      seed: '31337',
      steps: 28,
      guidance: 1.5,
      distilledGuidance: 4.5,
      sampler: 'dpmpp_2m',
      scheduler: 'beta',
      denoise: 1,
      prompt: 'a fox in snow',
      model: 'flux1-krea-dev.safetensors',
      width: 1024,
      height: 1536,
    });
  });
});

describe('ComfyUI tracer: prompts through string nodes, primitives and switches', () => {
  it('joins StringConcatenate and Text Concatenate parts with their delimiters', () => {
    const graph = base();
    graph['50'] = node('PrimitiveStringMultiline', { value: 'a lighthouse' });
    graph['51'] = node('Text Multiline', { text: 'at dusk' });
    graph['52'] = node('StringConcatenate', { string_a: ['50', 0], string_b: ['51', 0], delimiter: ', ' });
    graph['53'] = node('Text Concatenate', {
      delimiter: ' | ',
      clean_whitespace: 'true',
      text_a: ['52', 0],
      text_b: 'film grain',
    });
    graph['6']!.inputs['text'] = ['53', 0];
    expect(read(graph)?.settings.prompt).toBe('a lighthouse, at dusk | film grain');
  });

  it('takes the prompt styler output each encoder is linked to (positive 0, negative 1)', () => {
    const graph = base();
    graph['60'] = node('SDXLPromptStyler', { text_positive: 'a cat', text_negative: 'dog', style: 'base' });
    graph['6']!.inputs['text'] = ['60', 0];
    graph['7']!.inputs['text'] = ['60', 1];
    expect(read(graph)?.settings).toMatchObject({ prompt: 'a cat', negativePrompt: 'dog' });
  });

  it('reads the populated text of a wildcard processor and a seed from a seed node', () => {
    const graph = base();
    graph['70'] = node('ImpactWildcardProcessor', {
      wildcard_text: 'a __animal__',
      populated_text: 'a heron',
      mode: 'populate',
    });
    graph['71'] = node('Seed (rgthree)', { seed: 8080 });
    graph['6']!.inputs['text'] = ['70', 0];
    graph['3']!.inputs['seed'] = ['71', 0];
    expect(read(graph)?.settings).toMatchObject({ prompt: 'a heron', seed: '8080' });
  });

  it('picks the selected input of a numbered switch and of a boolean switch', () => {
    const graph = base();
    graph['80'] = node('CR Text Input Switch', { Input: 2, text1: 'not this', text2: 'this one' });
    graph['6']!.inputs['text'] = ['80', 0];
    graph['81'] = node('PrimitiveBoolean', { value: true });
    graph['82'] = node('CheckpointLoaderSimple', { ckpt_name: 'chosen.safetensors' });
    graph['83'] = node('ComfySwitchNode', { switch: ['81', 0], on_false: ['4', 0], on_true: ['82', 0] });
    graph['3']!.inputs['model'] = ['83', 0];
    expect(read(graph)?.settings).toMatchObject({ prompt: 'this one', model: 'chosen.safetensors' });
  });

  it('reads both prompts, the model, the size and its LoRAs from an Efficient Loader with a LoRA Stacker', () => {
    const graph: Api = {
      '1': node('LoRA Stacker', {
        input_mode: 'simple',
        lora_count: 2,
        lora_name_1: 'ink.safetensors',
        lora_wt_1: 0.7,
        model_str_1: 1,
        lora_name_2: 'paper.safetensors',
        lora_wt_2: 0.4,
        model_str_2: 1,
        lora_name_3: 'unused.safetensors',
        lora_wt_3: 1,
      }),
      '2': node('Efficient Loader', {
        ckpt_name: 'dream.safetensors',
        lora_name: 'own.safetensors',
        lora_model_strength: 0.9,
        positive: 'a red kite',
        negative: 'lowres',
        empty_latent_width: 768,
        empty_latent_height: 512,
        lora_stack: ['1', 0],
      }),
      '3': node('KSampler (Efficient)', {
        seed: 5,
        steps: 22,
        cfg: 6,
        sampler_name: 'euler',
        scheduler: 'karras',
        denoise: 1,
        model: ['2', 0],
        positive: ['2', 1],
        negative: ['2', 2],
        latent_image: ['2', 3],
      }),
      '9': node('SaveImage', { images: ['3', 5] }),
    };
    expect(read(graph)?.settings).toMatchObject({
      prompt: 'a red kite',
      negativePrompt: 'lowres',
      model: 'dream.safetensors',
      width: 768,
      height: 512,
      loras: [
        { name: 'own.safetensors', weight: 0.9 },
        { name: 'ink.safetensors', weight: 0.7 },
        { name: 'paper.safetensors', weight: 0.4 },
      ],
    });
  });
});

describe('ComfyUI tracer: LoRA loaders', () => {
  it('reads rgthree Power Lora Loader (only the ones on), Comfyroll stacks and pysssss loaders in order', () => {
    const graph = base();
    graph['90'] = node('Power Lora Loader (rgthree)', {
      PowerLoraLoaderHeaderWidget: { type: 'PowerLoraLoaderHeaderWidget' },
      lora_1: { on: true, lora: 'a.safetensors', strength: 0.6 },
      lora_2: { on: false, lora: 'off.safetensors', strength: 1 },
      lora_3: { on: true, lora: 'b.safetensors', strength: 1.2 },
      '➕ Add Lora': '',
      model: ['4', 0],
      clip: ['4', 1],
    });
    graph['91'] = node('CR LoRA Stack', {
      switch_1: 'On',
      lora_name_1: 'c.safetensors',
      model_weight_1: 0.5,
      clip_weight_1: 1,
      switch_2: 'Off',
      lora_name_2: 'd.safetensors',
      model_weight_2: 1,
      switch_3: 'On',
      lora_name_3: 'None',
      model_weight_3: 1,
    });
    graph['92'] = node('CR Apply LoRA Stack', { model: ['90', 0], clip: ['90', 1], lora_stack: ['91', 0] });
    graph['93'] = node('LoraLoader|pysssss', {
      lora_name: { content: 'e.safetensors', image: null },
      strength_model: 0.3,
      model: ['92', 0],
    });
    graph['94'] = node('LoraLoaderModelOnly', { lora_name: 'f.safetensors', strength_model: 0.8, model: ['93', 0] });
    graph['3']!.inputs['model'] = ['94', 0];
    expect(read(graph)?.settings.loras).toEqual([
      { name: 'a.safetensors', weight: 0.6 },
      { name: 'b.safetensors', weight: 1.2 },
      { name: 'c.safetensors', weight: 0.5 },
      { name: 'e.safetensors', weight: 0.3 },
      { name: 'f.safetensors', weight: 0.8 },
    ]);
  });
  it("reads rgthree's Lora Loader Stack and an Easy-Use LoRA stack (only the slots in use)", () => {
    const graph = base();
    graph['97'] = node('Lora Loader Stack (rgthree)', {
      lora_01: 'one.safetensors',
      strength_01: 0.5,
      lora_02: 'None',
      strength_02: 1,
      lora_03: 'three.safetensors',
      strength_03: 0.25,
      model: ['4', 0],
    });
    graph['98'] = node('easy loraStack', {
      toggle: true,
      mode: 'simple',
      num_loras: 1,
      lora_1_name: 'easy.safetensors',
      lora_1_strength: 0.9,
      lora_2_name: 'unused.safetensors',
      lora_2_strength: 1,
    });
    graph['99'] = node('CR Apply LoRA Stack', { model: ['97', 0], lora_stack: ['98', 0] });
    graph['3']!.inputs['model'] = ['99', 0];
    expect(read(graph)?.settings.loras).toEqual([
      { name: 'one.safetensors', weight: 0.5 },
      { name: 'three.safetensors', weight: 0.25 },
      { name: 'easy.safetensors', weight: 0.9 },
    ]);
  });
});

describe("ComfyUI tracer: rgthree's Context bus", () => {
  it('reads each output as the input of its name, else the base context’s, also after a Context Switch', () => {
    const graph = base();
    graph['100'] = node('Context (rgthree)', { model: ['4', 0], latent: ['5', 0] });
    graph['101'] = node('Context (rgthree)', { base_ctx: ['100', 0], positive: ['6', 0], negative: ['7', 0] });
    graph['102'] = node('Context Switch (rgthree)', { ctx_02: ['101', 0] });
    graph['3'] = ksampler(111, 30, '102', '102', { positive: ['102', 4], negative: ['102', 5] });
    graph['3'].inputs['model'] = ['102', 1];
    graph['3'].inputs['latent_image'] = ['102', 6];
    expect(read(graph)?.settings).toMatchObject({
      model: 'base.safetensors',
      prompt: 'a lighthouse at dusk',
      negativePrompt: 'blurry',
      width: 832,
    });
  });
});

describe("ComfyUI tracer: a person's own node rules", () => {
  const custom = (): Api => {
    const graph = base();
    graph['3'] = node('MyFancySampler', {
      my_seed: 9001,
      how_many_steps: 17,
      my_model: ['4', 0],
      positive: ['6', 0],
      negative: ['7', 0],
      latent_image: ['5', 0],
    });
    graph['6'] = node('MyPromptBox', { words: 'a glass harp' });
    return graph;
  };

  it('without rules, the unknown node classes give nothing of those settings', () => {
    const settings = read(custom())?.settings;
    expect(settings?.seed).toBeUndefined();
    expect(settings?.steps).toBeUndefined();
    expect(settings?.prompt).toBeUndefined();
  });

  it('with rules, tracing through the nodes reads the inputs they name', () => {
    const rules: ComfyNodeRule[] = [
      { classType: 'MyFancySampler', input: 'my_seed', field: 'seed' },
      { classType: 'MyFancySampler', input: 'how_many_steps', field: 'steps' },
      { classType: 'MyPromptBox', input: 'words', field: 'prompt' },
    ];
    expect(read(custom(), rules)?.settings).toMatchObject({
      seed: '9001',
      steps: 17,
      prompt: 'a glass harp',
      negativePrompt: 'blurry',
    });
  });

  it("a person's value node linked to a known sampler gives out the input their rule names", () => {
    const graph = base();
    graph['3'] = ksampler(0, 20, '4', '5', { seed: ['40', 0], steps: ['41', 0] });
    graph['40'] = node('StudioSeedDial', { dial: 424242, label: 'lucky' });
    graph['41'] = node('StudioStepsKnob', { notch: 33 });
    expect(read(graph)?.settings.seed).toBeUndefined();
    const rules: ComfyNodeRule[] = [
      { classType: 'StudioSeedDial', input: 'dial', field: 'seed' },
      { classType: 'StudioStepsKnob', input: 'notch', field: 'steps' },
    ];
    expect(read(graph, rules)?.settings).toMatchObject({ seed: '424242', steps: 33 });
  });
});

describe('ComfyUI tracer: what is not a prompt', () => {
  it('a negative made by ConditioningZeroOut of the positive is no negative prompt', () => {
    const graph = base();
    graph['7'] = node('ConditioningZeroOut', { conditioning: ['6', 0] });
    const settings = read(graph)?.settings;
    expect(settings?.prompt).toBe('a lighthouse at dusk');
    expect(settings?.negativePrompt).toBeUndefined();
  });

  it("rgthree's Any Switch passes on its first linked input", () => {
    const graph = base();
    graph['95'] = node('Any Switch (rgthree)', { any_02: ['4', 0], any_03: ['96', 0] });
    graph['96'] = node('CheckpointLoaderSimple', { ckpt_name: 'second.safetensors' });
    graph['3']!.inputs['model'] = ['95', 0];
    expect(read(graph)?.settings.model).toBe('base.safetensors');
  });
});
