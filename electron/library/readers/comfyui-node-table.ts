/**
 * What the ComfyUI reader knows about node classes, as data: extend a row (or add one) to teach the tracer a node.
 * Classes not listed are still followed: the defaults at the bottom name the inputs most nodes use.
 */

import type { NodeField, NodeSpec } from './comfyui-node-types.js';

export type { ComfyNodeRule, LoraInputs, NodeField, NodeRole, NodeSpec } from './comfyui-node-types.js';

const CONTEXT = ['base_ctx', 'model', 'clip', 'vae', 'positive', 'negative', 'latent', 'images', 'seed'];

const SAMPLER_FIELDS: NodeSpec['fields'] = {
  seed: ['seed', 'noise_seed'],
  steps: ['steps'],
  guidance: ['cfg'],
  sampler: ['sampler_name'],
  scheduler: ['scheduler'],
  denoise: ['denoise'],
};
const KSAMPLER_WIDGETS = ['seed', 'steps', 'cfg', 'sampler_name', 'scheduler', 'denoise'];

const sampler = (widgets: string[]): NodeSpec => ({
  role: 'sampler',
  widgets,
  fields: SAMPLER_FIELDS,
  from: ['latent_image'],
});
const encoder = (widgets: string[], prompt: string[]): NodeSpec => ({ role: 'encoder', widgets, fields: { prompt } });
const loader = (widgets: string[], model: string[]): NodeSpec => ({ role: 'loader', widgets, fields: { model } });
const text = (widgets: string[], parts: string[], delimiter?: string, joiner = ''): NodeSpec => ({
  role: 'string',
  widgets,
  parts,
  joiner,
  ...(delimiter === undefined ? {} : { delimiter }),
});
const primitive = (widgets: string[] = ['value']): NodeSpec => ({ role: 'primitive', widgets, parts: widgets });
const numbered = (select: string, prefix: string, count: number): NodeSpec => ({
  role: 'switch',
  select,
  options: Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`),
});
const latent = (widgets: string[]): NodeSpec => ({
  role: 'latent',
  widgets,
  fields: { width: ['width'], height: ['height'] },
});

export const NODE_TABLE: Readonly<Record<string, NodeSpec>> = {
  // Samplers: the first pass and every later one.
  KSampler: sampler(KSAMPLER_WIDGETS),
  KSamplerAdvanced: sampler([
    'add_noise',
    'noise_seed',
    'steps',
    'cfg',
    'sampler_name',
    'scheduler',
    'start_at_step',
    'end_at_step',
    'return_with_leftover_noise',
  ]),
  SamplerCustom: sampler(['add_noise', 'noise_seed', 'cfg']),
  SamplerCustomAdvanced: { role: 'sampler', from: ['latent_image'] },
  'KSampler (Efficient)': sampler(['seed', 'steps', 'cfg', 'sampler_name', 'scheduler', 'denoise']),
  'KSampler Adv. (Efficient)': sampler([
    'add_noise',
    'noise_seed',
    'steps',
    'cfg',
    'sampler_name',
    'scheduler',
    'start_at_step',
    'end_at_step',
    'return_with_leftover_noise',
  ]),
  'KSampler SDXL (Eff.)': {
    ...sampler([
      'noise_seed',
      'steps',
      'cfg',
      'sampler_name',
      'scheduler',
      'start_at_step',
      'refine_at_step',
      'preview_method',
      'vae_decode',
    ]),
    pipe: 'sdxl_tuple',
  },
  // Efficiency's scripts: a later pass its sampler runs itself, linked to it by `script`.
  'HighRes-Fix Script': {
    role: 'script',
    scriptPass: 'hires',
    widgets: [
      'upscale_type',
      'hires_ckpt_name',
      'latent_upscaler',
      'pixel_upscaler',
      'upscale_by',
      'use_same_seed',
      'seed',
      'hires_steps',
      'denoise',
      'iterations',
    ],
    fields: { seed: ['seed'], steps: ['hires_steps'], denoise: ['denoise'] },
  },
  'Tiled Upscaler Script': {
    role: 'script',
    scriptPass: 'upscale',
    widgets: ['upscale_by', 'tile_size', 'tiling_strategy', 'tiling_steps', 'seed', 'denoise', 'use_controlnet'],
    fields: { seed: ['seed'], steps: ['tiling_steps'], denoise: ['denoise'] },
  },
  'KSamplerAdvanced //Inspire': sampler(['add_noise', 'noise_seed', 'steps', 'cfg', 'sampler_name', 'scheduler']),
  'KSampler //Inspire': sampler(KSAMPLER_WIDGETS),
  // Later passes over the image: detailers and tiled upscalers that sample again.
  FaceDetailer: { role: 'detailer', fields: SAMPLER_FIELDS, from: ['image'] },
  FaceDetailerPipe: { role: 'detailer', fields: SAMPLER_FIELDS, from: ['image'] },
  DetailerForEach: { role: 'detailer', fields: SAMPLER_FIELDS, from: ['image'] },
  DetailerForEachPipe: { role: 'detailer', fields: SAMPLER_FIELDS, from: ['image'] },
  UltimateSDUpscale: { role: 'upscaler', fields: SAMPLER_FIELDS, from: ['image'] },
  UltimateSDUpscaleNoUpscale: { role: 'upscaler', fields: SAMPLER_FIELDS, from: ['upscaled_image'] },
  ImageUpscaleWithModel: { role: 'upscaler', from: ['image'] },
  UpscaleModelLoader: loader(['model_name'], ['model_name']),
  // SamplerCustomAdvanced's parts.
  RandomNoise: { role: 'noise', widgets: ['noise_seed'], fields: { seed: ['noise_seed'] } },
  CFGGuider: { role: 'guider', widgets: ['cfg'], fields: { guidance: ['cfg'] } },
  BasicGuider: { role: 'guider' },
  DualCFGGuider: { role: 'guider', widgets: ['cfg_conds', 'cfg_cond2_negative'], fields: { guidance: ['cfg_conds'] } },
  KSamplerSelect: { role: 'select', widgets: ['sampler_name'], fields: { sampler: ['sampler_name'] } },
  BasicScheduler: {
    role: 'sigmas',
    widgets: ['scheduler', 'steps', 'denoise'],
    fields: { steps: ['steps'], scheduler: ['scheduler'], denoise: ['denoise'] },
  },
  KarrasScheduler: { role: 'sigmas', widgets: ['steps'], fields: { steps: ['steps'] } },
  SDTurboScheduler: {
    role: 'sigmas',
    widgets: ['steps', 'denoise'],
    fields: { steps: ['steps'], denoise: ['denoise'] },
  },
  AlignYourStepsScheduler: {
    role: 'sigmas',
    widgets: ['model_type', 'steps', 'denoise'],
    fields: { steps: ['steps'], denoise: ['denoise'] },
  },
  Flux2Scheduler: { role: 'sigmas', widgets: ['steps', 'width', 'height'], fields: { steps: ['steps'] } },
  // Text encoders, the main prompt first (Flux and SD3: t5xxl before clip_l; SDXL: text_g before text_l).
  CLIPTextEncode: encoder(['text'], ['text']),
  'smZ CLIPTextEncode': encoder(['text'], ['text']),
  BNK_CLIPTextEncodeAdvanced: encoder(['text', 'token_normalization', 'weight_interpretation'], ['text']),
  CLIPTextEncodeSDXL: encoder(
    ['width', 'height', 'crop_w', 'crop_h', 'target_width', 'target_height', 'text_g', 'text_l'],
    ['text_g', 'text_l'],
  ),
  CLIPTextEncodeSDXLRefiner: encoder(['ascore', 'width', 'height', 'text'], ['text']),
  CLIPTextEncodeFlux: {
    ...encoder(['clip_l', 't5xxl', 'guidance'], ['t5xxl', 'clip_l']),
    fields: { prompt: ['t5xxl', 'clip_l'], distilledGuidance: ['guidance'] },
  },
  CLIPTextEncodeSD3: encoder(['clip_l', 'clip_g', 't5xxl', 'empty_padding'], ['t5xxl', 'clip_g', 'clip_l']),
  CLIPTextEncodeHunyuanDiT: encoder(['bert', 'mt5xl'], ['bert', 'mt5xl']),
  TextEncodeQwenImageEdit: encoder(['prompt'], ['prompt']),
  TextEncodeQwenImageEditPlus: encoder(['prompt'], ['prompt']),
  ImpactWildcardEncode: encoder(
    ['wildcard_text', 'populated_text', 'mode', 'Select to add LoRA', 'Select to add Wildcard', 'seed'],
    ['populated_text', 'wildcard_text'],
  ),
  FluxGuidance: { role: 'guidance', widgets: ['guidance'], fields: { distilledGuidance: ['guidance'] } },
  // Model loaders: where the model file is named.
  CheckpointLoaderSimple: loader(['ckpt_name'], ['ckpt_name']),
  CheckpointLoader: loader(['config_name', 'ckpt_name'], ['ckpt_name']),
  unCLIPCheckpointLoader: loader(['ckpt_name'], ['ckpt_name']),
  'CheckpointLoader|pysssss': loader(['ckpt_name'], ['ckpt_name']),
  ImageOnlyCheckpointLoader: loader(['ckpt_name'], ['ckpt_name']),
  UNETLoader: loader(['unet_name', 'weight_dtype'], ['unet_name']),
  UnetLoaderGGUF: loader(['unet_name'], ['unet_name']),
  DiffusersLoader: loader(['model_path'], ['model_path']),
  'Efficient Loader': {
    role: 'loader',
    widgets: [
      'ckpt_name',
      'vae_name',
      'clip_skip',
      'lora_name',
      'lora_model_strength',
      'lora_clip_strength',
      'positive',
      'negative',
      'token_normalization',
      'weight_interpretation',
      'empty_latent_width',
      'empty_latent_height',
      'batch_size',
    ],
    fields: {
      model: ['ckpt_name'],
      prompt: ['positive'],
      negativePrompt: ['negative'],
      width: ['empty_latent_width'],
      height: ['empty_latent_height'],
    },
    lora: { name: 'lora_name', weight: ['lora_model_strength'] },
  },
  'Eff. Loader SDXL': {
    role: 'loader',
    widgets: [
      'base_ckpt_name',
      'base_clip_skip',
      'refiner_ckpt_name',
      'refiner_clip_skip',
      'positive_ascore',
      'negative_ascore',
      'vae_name',
      'positive',
      'negative',
      'token_normalization',
      'weight_interpretation',
      'empty_latent_width',
      'empty_latent_height',
      'batch_size',
    ],
    fields: {
      model: ['base_ckpt_name'],
      prompt: ['positive'],
      negativePrompt: ['negative'],
      width: ['empty_latent_width'],
      height: ['empty_latent_height'],
    },
  },
  // LoRAs, with their weights.
  LoraLoader: {
    role: 'lora',
    widgets: ['lora_name', 'strength_model', 'strength_clip'],
    lora: { name: 'lora_name', weight: ['strength_model'] },
  },
  LoraLoaderModelOnly: {
    role: 'lora',
    widgets: ['lora_name', 'strength_model'],
    lora: { name: 'lora_name', weight: ['strength_model'] },
  },
  'LoraLoader|pysssss': {
    role: 'lora',
    widgets: ['lora_name', 'strength_model', 'strength_clip'],
    lora: { name: 'lora_name', weight: ['strength_model'] },
  },
  'Power Lora Loader (rgthree)': { role: 'lora', lora: { name: 'lora', weight: ['strength'], objects: true } },
  'LoRA Stacker': {
    role: 'lora',
    lora: { name: 'lora_name_#', weight: ['lora_wt_#'], advanced: ['model_str_#'], count: 50, limit: 'lora_count' },
  },
  'CR LoRA Stack': {
    role: 'lora',
    widgets: [
      'switch_1',
      'lora_name_1',
      'model_weight_1',
      'clip_weight_1',
      'switch_2',
      'lora_name_2',
      'model_weight_2',
      'clip_weight_2',
      'switch_3',
      'lora_name_3',
      'model_weight_3',
      'clip_weight_3',
    ],
    lora: { name: 'lora_name_#', weight: ['model_weight_#'], count: 3, on: 'switch_#' },
  },
  'CR Apply LoRA Stack': { role: 'lora' },
  'Lora Loader Stack (rgthree)': { role: 'lora', lora: { name: 'lora_0#', weight: ['strength_0#'], count: 4 } },
  'easy loraStack': {
    role: 'lora',
    lora: { name: 'lora_#_name', weight: ['lora_#_model_strength', 'lora_#_strength'], count: 10, limit: 'num_loras' },
  },
  // Latent sizes.
  EmptyLatentImage: latent(['width', 'height', 'batch_size']),
  EmptySD3LatentImage: latent(['width', 'height', 'batch_size']),
  'SDXL Empty Latent Image (rgthree)': { role: 'latent', widgets: ['dimensions', 'clip_scale', 'batch_size'] },
  EmptyHunyuanLatentVideo: latent(['width', 'height', 'length', 'batch_size']),
  EmptyMochiLatentVideo: latent(['width', 'height', 'length', 'batch_size']),
  EmptyLTXVLatentVideo: latent(['width', 'height', 'length', 'batch_size']),
  EmptyFlux2LatentImage: latent(['width', 'height', 'batch_size']),
  StableCascade_EmptyLatentImage: latent(['width', 'height', 'compression', 'batch_size']),
  LatentUpscale: { role: 'latent', widgets: ['upscale_method', 'width', 'height', 'crop'], from: ['samples'] },
  LatentUpscaleBy: { role: 'latent', widgets: ['upscale_method', 'scale_by'], from: ['samples'] },
  // Strings: literals, joins and stylers on the way to an encoder.
  PrimitiveNode: primitive(),
  PrimitiveString: primitive(),
  PrimitiveStringMultiline: primitive(),
  PrimitiveInt: primitive(),
  PrimitiveFloat: primitive(),
  'Primitive integer [Crystools]': primitive(['int']),
  'Primitive string [Crystools]': primitive(['string']),
  'Primitive string multiline [Crystools]': primitive(['string']),
  'Seed (rgthree)': primitive(['seed']),
  'CR Seed': primitive(['seed']),
  'Seed Generator': primitive(['seed']),
  'Text Multiline': text(['text'], ['text']),
  'Text box': text(['Text'], ['Text']),
  'String Literal': text(['string'], ['string']),
  'CR Text': text(['text'], ['text']),
  'CR Prompt Text': text(['prompt'], ['prompt']),
  'ttN text': text(['text'], ['text']),
  'easy positive': text(['positive'], ['positive']),
  'easy negative': text(['negative'], ['negative']),
  'ShowText|pysssss': text([], ['text']),
  StringConcatenate: text(['string_a', 'string_b', 'delimiter'], ['string_a', 'string_b'], 'delimiter'),
  'Text Concatenate': text(['delimiter', 'clean_whitespace'], ['text_a', 'text_b', 'text_c', 'text_d'], 'delimiter'),
  'CR Text Concatenate': text(['text1', 'text2', 'separator'], ['text1', 'text2'], 'separator'),
  JoinStrings: text(['string1', 'string2', 'delimiter'], ['string1', 'string2'], 'delimiter'),
  'StringFunction|pysssss': text(['action', 'tidy_tags', 'text_a', 'text_b', 'text_c'], ['text_a', 'text_b', 'text_c']),
  'Join String List': text(['delimiter'], ['string_list'], 'delimiter'),
  ImpactWildcardProcessor: text(
    ['wildcard_text', 'populated_text', 'mode', 'seed', 'Select to add Wildcard'],
    ['populated_text'],
  ),
  DPRandomGenerator: text(['text', 'seed'], ['text']),
  DPCombinatorialGenerator: text(['text'], ['text']),
  SDXLPromptStyler: {
    role: 'string',
    widgets: ['text_positive', 'text_negative', 'style', 'log_prompt'],
    outputs: ['text_positive', 'text_negative'],
  },
  SDXLPromptStylerAdvanced: { role: 'string', outputs: ['text_positive_g', 'text_negative'] },
  'Power Prompt (rgthree)': encoder(['prompt'], ['prompt']),
  'Power Prompt - Simple (rgthree)': encoder(['prompt'], ['prompt']),
  DF_Text_Box: text(['Text'], ['Text']),
  'Text String': {
    role: 'string',
    widgets: ['text', 'text_b', 'text_c', 'text_d'],
    outputs: ['text', 'text_b', 'text_c', 'text_d'],
  },
  PreviewAny: text([], ['source']),
  ConditioningZeroOut: { stops: true },
  StableCascade_StageB_Conditioning: { prior: 'stage_c' },
  // rgthree's Context: one link carries them all; each output is the input of its name, else the base context's.
  'Context (rgthree)': { bus: CONTEXT },
  'Context Switch (rgthree)': {
    role: 'switch',
    select: '',
    options: ['ctx_01', 'ctx_02', 'ctx_03', 'ctx_04', 'ctx_05'],
    bus: CONTEXT,
  },
  'Context Big (rgthree)': { bus: [...CONTEXT, 'steps', 'step_refiner', 'cfg', 'ckpt_name', 'sampler', 'scheduler'] },
  // Switches: only the selected input counts.
  'CR Text Input Switch': numbered('Input', 'text', 2),
  'CR Model Input Switch': numbered('Input', 'model', 2),
  'CR Conditioning Input Switch': numbered('Input', 'conditioning', 2),
  'CR Latent Input Switch': numbered('Input', 'latent', 2),
  'CR Image Input Switch': numbered('Input', 'image', 2),
  'CR Clip Input Switch': numbered('Input', 'clip', 2),
  ImpactSwitch: numbered('select', 'input', 99),
  'Switch any [Crystools]': { role: 'switch', select: 'boolean', options: ['on_false', 'on_true'] },
  'Switch latent [Crystools]': { role: 'switch', select: 'boolean', options: ['on_false', 'on_true'] },
  'Switch string [Crystools]': { role: 'switch', select: 'boolean', options: ['on_false', 'on_true'] },
  'Switch conditioning [Crystools]': { role: 'switch', select: 'boolean', options: ['on_false', 'on_true'] },
  ComfySwitchNode: { role: 'switch', select: 'switch', options: ['on_false', 'on_true'] },
  ImpactConditionalBranch: { role: 'switch', select: 'cond', options: ['ff_value', 'tt_value'] },
  // rgthree's Any Switch passes on its first input that has a value: with no selector, the first one linked.
  'Any Switch (rgthree)': { role: 'switch', select: '', options: ['any_01', 'any_02', 'any_03', 'any_04', 'any_05'] },
  // Outputs the walk starts from.
  SaveImage: { role: 'output', from: ['images'] },
  PreviewImage: { role: 'output', from: ['images'] },
  // Composites carry on the latent or image they paste onto.
  LatentComposite: { from: ['samples_to'] },
  LatentCompositeMasked: { from: ['destination'] },
  ImageCompositeMasked: { from: ['destination'] },
  LatentBlend: { from: ['samples1'] },
  VAEDecode: { from: ['samples'] },
  VAEDecodeTiled: { from: ['samples'] },
  VAEEncode: { from: ['pixels'] },
  ImageScale: { from: ['image'] },
  ImageScaleBy: { from: ['image'] },
};

/** Inputs that carry the image or latent on from the node before, for classes the table does not list. */
export const DEFAULT_FROM = ['images', 'image', 'samples', 'latent_image', 'latent', 'pixels'];

/** Inputs that hold a setting on a node the table does not list (or lists without that field). */
export const DEFAULT_FIELDS: Readonly<Record<NodeField, string[]>> = {
  prompt: ['text', 't5xxl', 'text_g', 'clip_l', 'text_l', 'prompt'],
  negativePrompt: [],
  seed: ['seed', 'noise_seed'],
  model: ['ckpt_name', 'unet_name', 'model_name', 'model_path'],
  steps: ['steps'],
  guidance: ['cfg'],
  sampler: ['sampler_name'],
  scheduler: ['scheduler'],
  denoise: ['denoise'],
  width: ['width'],
  height: ['height'],
  distilledGuidance: ['guidance'],
};
