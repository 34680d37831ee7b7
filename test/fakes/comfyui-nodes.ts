/**
 * The ComfyUI nodes the fake knows: their /object_info specs, /prompt validation (execution.py validate_inputs
 * shapes, reference §3.1) and the size of what each one outputs, so SaveImage writes images of the right size.
 */

type InputSpec =
  | { kind: 'link'; type: string }
  | { kind: 'INT' | 'FLOAT'; min?: number; max?: number }
  | { kind: 'STRING' | 'BOOLEAN' }
  | { kind: 'COMBO'; options: (env: NodeEnv) => string[] };

interface NodeSpec {
  required: Record<string, InputSpec>;
  optional?: Record<string, InputSpec>;
  output: string[];
  category: string;
  output_node?: boolean;
}

/** What the server has: its checkpoints, upscale models and the files uploaded to input/. */
export interface NodeEnv {
  checkpoints: string[];
  upscaleModels: string[];
  inputFiles: () => string[];
}

const link = (type: string): InputSpec => ({ kind: 'link', type });
const int = (min?: number, max?: number): InputSpec => ({ kind: 'INT', ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) });
const float = (min?: number, max?: number): InputSpec => ({ kind: 'FLOAT', ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) });
const combo = (options: (env: NodeEnv) => string[]): InputSpec => ({ kind: 'COMBO', options });
const any = (): InputSpec => ({ kind: 'STRING' });
const SCALE_METHODS = ['nearest-exact', 'bilinear', 'area', 'bicubic', 'lanczos'];

export const NODES: Record<string, NodeSpec> = {
  CheckpointLoaderSimple: { required: { ckpt_name: combo((env) => env.checkpoints) }, output: ['MODEL', 'CLIP', 'VAE'], category: 'loaders' },
  KSampler: {
    required: { model: link('MODEL'), seed: int(0), steps: int(1, 10000), cfg: float(0, 100), sampler_name: any(), scheduler: any(), positive: link('CONDITIONING'), negative: link('CONDITIONING'), latent_image: link('LATENT'), denoise: float(0, 1) },
    output: ['LATENT'],
    category: 'sampling',
  },
  EmptyLatentImage: { required: { width: int(16, 16384), height: int(16, 16384), batch_size: int(1, 4096) }, output: ['LATENT'], category: 'latent' },
  CLIPTextEncode: { required: { text: any(), clip: link('CLIP') }, output: ['CONDITIONING'], category: 'conditioning' },
  VAEDecode: { required: { samples: link('LATENT'), vae: link('VAE') }, output: ['IMAGE'], category: 'latent' },
  SaveImage: { required: { images: link('IMAGE'), filename_prefix: any() }, output: [], category: 'image', output_node: true },
  LoadImage: { required: { image: combo((env) => env.inputFiles()) }, output: ['IMAGE', 'MASK'], category: 'image' },
  LoadImageMask: { required: { image: combo((env) => env.inputFiles()), channel: combo(() => ['alpha', 'red', 'green', 'blue']) }, output: ['MASK'], category: 'mask' },
  VAEEncode: { required: { pixels: link('IMAGE'), vae: link('VAE') }, output: ['LATENT'], category: 'latent' },
  SetLatentNoiseMask: { required: { samples: link('LATENT'), mask: link('MASK') }, output: ['LATENT'], category: 'latent/inpaint' },
  RepeatLatentBatch: { required: { samples: link('LATENT'), amount: int(1, 64) }, output: ['LATENT'], category: 'latent/batch' },
  RepeatImageBatch: { required: { image: link('IMAGE'), amount: int(1, 4096) }, output: ['IMAGE'], category: 'image/batch' },
  ImageCompositeMasked: {
    required: { destination: link('IMAGE'), source: link('IMAGE'), x: int(0, 16384), y: int(0, 16384), resize_source: { kind: 'BOOLEAN' } },
    optional: { mask: link('MASK') },
    output: ['IMAGE'],
    category: 'image',
  },
  UpscaleModelLoader: { required: { model_name: combo((env) => env.upscaleModels) }, output: ['UPSCALE_MODEL'], category: 'loaders' },
  ImageUpscaleWithModel: { required: { upscale_model: link('UPSCALE_MODEL'), image: link('IMAGE') }, output: ['IMAGE'], category: 'image/upscaling' },
  ImageScaleBy: { required: { image: link('IMAGE'), upscale_method: combo(() => SCALE_METHODS), scale_by: float(0.01, 8) }, output: ['IMAGE'], category: 'image/upscaling' },
  ImageScale: {
    required: { image: link('IMAGE'), upscale_method: combo(() => SCALE_METHODS), width: int(0, 16384), height: int(0, 16384), crop: combo(() => ['disabled', 'center']) },
    output: ['IMAGE'],
    category: 'image/upscaling',
  },
};

/** One node's /object_info entry, combos in the old `[[...], {}]` or the newer `["COMBO", {options}]` shape. */
export function objectInfo(name: string, env: NodeEnv, comboSpec: boolean): Record<string, unknown> {
  const spec = NODES[name]!;
  const shape = (input: InputSpec): unknown => {
    switch (input.kind) {
      case 'link':
        return [input.type, {}];
      case 'COMBO':
        return comboSpec ? ['COMBO', { options: input.options(env) }] : [input.options(env), {}];
      case 'INT':
      case 'FLOAT':
        return [input.kind, { ...(input.min === undefined ? {} : { min: input.min }), ...(input.max === undefined ? {} : { max: input.max }) }];
      default:
        return [input.kind, {}];
    }
  };
  const map = (inputs: Record<string, InputSpec> = {}) => Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, shape(v)]));
  return {
    input: { required: map(spec.required), ...(spec.optional === undefined ? {} : { optional: map(spec.optional) }) },
    input_order: { required: Object.keys(spec.required) },
    output: spec.output,
    output_is_list: spec.output.map(() => false),
    output_name: spec.output,
    name,
    display_name: name,
    description: '',
    python_module: 'nodes',
    category: spec.category,
    output_node: spec.output_node === true,
  };
}

export type Graph = Record<string, { class_type?: string; inputs?: Record<string, unknown> }>;
interface InputError {
  type: string;
  message: string;
  details: string;
  extra_info: Record<string, unknown>;
}

/**
 * Node errors the way validate_inputs reports them, for the nodes this fake knows (others pass, as custom nodes
 * the fake has never heard of would on a server that has them).
 */
export function validateGraph(graph: Graph, env: NodeEnv): Record<string, { errors: InputError[]; dependent_outputs: string[]; class_type: string }> {
  const problems: Record<string, { errors: InputError[]; dependent_outputs: string[]; class_type: string }> = {};
  for (const [id, node] of Object.entries(graph)) {
    const spec = NODES[node.class_type ?? ''];
    if (spec === undefined) continue;
    const errors: InputError[] = [];
    const add = (type: string, message: string, name: string, details: string, received?: unknown) =>
      errors.push({ type, message, details: `${name}: ${details}`, extra_info: { input_name: name, ...(received === undefined ? {} : { received_value: received }) } });
    const inputs = node.inputs ?? {};
    const check = (name: string, input: InputSpec, required: boolean) => {
      const value = inputs[name];
      if (value === undefined) {
        if (required) add('required_input_missing', 'Required input is missing', name, 'missing');
        return;
      }
      if (input.kind === 'link') {
        const pair = Array.isArray(value) ? (value as unknown[]) : [];
        const source = graph[String(pair[0])];
        const out = source === undefined ? undefined : NODES[source.class_type ?? '']?.output[Number(pair[1])];
        if (!Array.isArray(value) || value.length !== 2) add('bad_linked_input', 'Bad linked input, must be a length-2 list of [node_id, slot_index]', name, JSON.stringify(value), value);
        else if (source === undefined) add('bad_linked_input', 'Bad linked input', name, `node ${String(value[0])} does not exist`, value);
        else if (out !== undefined && out !== input.type) add('return_type_mismatch', 'Return type mismatch between linked nodes', name, `received_type(${out}) mismatch input_type(${input.type})`, value);
        return;
      }
      if (input.kind === 'COMBO') {
        const options = input.options(env);
        if (!options.includes(value as string)) add('value_not_in_list', 'Value not in list', name, `'${String(value)}' not in (list of length ${options.length})`, value);
        return;
      }
      if (input.kind === 'INT' || input.kind === 'FLOAT') {
        if (typeof value !== 'number' || (input.kind === 'INT' && !Number.isInteger(value))) add('invalid_input_type', `Failed to convert an input value to a ${input.kind} value`, name, String(value), value);
        else if (input.min !== undefined && value < input.min) add('value_smaller_than_min', `Value ${value} smaller than min of ${input.min}`, name, `${value}`, value);
        else if (input.max !== undefined && value > input.max) add('value_bigger_than_max', `Value ${value} bigger than max of ${input.max}`, name, `${value}`, value);
        return;
      }
      if (input.kind === 'BOOLEAN' && typeof value !== 'boolean') add('invalid_input_type', 'Failed to convert an input value to a BOOLEAN value', name, String(value), value);
    };
    for (const [name, input] of Object.entries(spec.required)) check(name, input, true);
    for (const [name, input] of Object.entries(spec.optional ?? {})) check(name, input, false);
    if (errors.length > 0) problems[id] = { errors, dependent_outputs: [], class_type: node.class_type! };
  }
  return problems;
}

export interface Planes {
  width: number;
  height: number;
  batch: number;
}

/** The model's own factor, from its name ("4x-UltraSharp", "RealESRGAN_x2"), 4 when it says none. */
export function modelScale(name: string): number {
  const match = /(?:^|[^0-9])([1-8])x|x([1-8])(?:[^0-9]|$)/i.exec(name);
  return match === null ? 4 : Number(match[1] ?? match[2]);
}

/** The size of what a node outputs (image, latent or mask), following the links back to LoadImage. */
export function outputSize(graph: Graph, id: string, fileSize: (name: string) => { width: number; height: number }): Planes {
  const seen = new Set<string>();
  const size = (nodeId: string): Planes => {
    if (seen.has(nodeId)) throw new Error(`cycle at node ${nodeId}`);
    seen.add(nodeId);
    const node = graph[nodeId]!;
    const inputs = node.inputs ?? {};
    const from = (name: string) => size(String((inputs[name] as unknown[])[0]));
    const n = (name: string) => Number(inputs[name]);
    let result: Planes;
    switch (node.class_type) {
      case 'LoadImage':
      case 'LoadImageMask':
        result = { ...fileSize(String(inputs.image)), batch: 1 };
        break;
      case 'EmptyLatentImage':
        result = { width: n('width'), height: n('height'), batch: n('batch_size') };
        break;
      case 'VAEEncode': {
        // vae_encode_crop_pixels: the pixels are cropped to a multiple of 8.
        const p = from('pixels');
        result = { width: Math.floor(p.width / 8) * 8, height: Math.floor(p.height / 8) * 8, batch: p.batch };
        break;
      }
      case 'SetLatentNoiseMask':
      case 'KSampler':
      case 'VAEDecode':
        result = from(node.class_type === 'KSampler' ? 'latent_image' : node.class_type === 'VAEDecode' ? 'samples' : 'samples');
        break;
      case 'RepeatLatentBatch':
      case 'RepeatImageBatch': {
        const p = from(node.class_type === 'RepeatLatentBatch' ? 'samples' : 'image');
        result = { ...p, batch: p.batch * n('amount') };
        break;
      }
      case 'ImageCompositeMasked':
        result = from('destination');
        break;
      case 'ImageUpscaleWithModel': {
        const p = from('image');
        const loader = graph[String((inputs.upscale_model as unknown[])[0])]!;
        const s = modelScale(String(loader.inputs?.model_name));
        result = { width: p.width * s, height: p.height * s, batch: p.batch };
        break;
      }
      case 'ImageScaleBy': {
        const p = from('image');
        result = { width: Math.round(p.width * n('scale_by')), height: Math.round(p.height * n('scale_by')), batch: p.batch };
        break;
      }
      case 'ImageScale': {
        const p = from('image');
        result = { width: n('width'), height: n('height'), batch: p.batch };
        break;
      }
      case 'SaveImage':
        result = from('images');
        break;
      default:
        throw new Error(`the fake cannot size node ${nodeId} (${String(node.class_type)})`);
    }
    seen.delete(nodeId);
    return result;
  };
  return size(id);
}
