import { readFileSync } from 'node:fs';

/**
 * The ComfyUI nodes the fake knows, exactly as the real server describes them: their /object_info comes from the
 * transcript recorded from a real ComfyUI (test/fixtures/comfyui-real-transcript.json, by
 * test/real-comfyui/record-transcript.ts), with the server's own file lists (checkpoints, upscale models, uploaded
 * inputs) filled in from the fake's. Also the size of what each node outputs, so SaveImage writes the right size.
 */

export interface Transcript {
  comfyuiVersion: string;
  objectInfo: Record<string, Record<string, NodeInfo>>;
  facts: Record<string, Record<string, unknown>>;
}

export interface NodeInfo {
  input: { required?: Record<string, unknown[]>; optional?: Record<string, unknown[]> };
  output: string[];
  output_node: boolean;
  [key: string]: unknown;
}

let loaded: Transcript | undefined;

/** The recorded transcript (read once per process). */
export function transcript(): Transcript {
  loaded ??= JSON.parse(
    readFileSync(new URL('../fixtures/comfyui-real-transcript.json', import.meta.url), 'utf8'),
  ) as Transcript;
  return loaded;
}

/** What the server has: its checkpoints, upscale models, LoRAs and the files uploaded to input/. */
export interface NodeEnv {
  checkpoints: string[];
  upscaleModels: string[];
  /** Files in models/loras (LoraLoader's lora_name list). */
  loras?: string[];
  inputFiles: () => string[];
  /** Node classes a test pretends are installed (custom nodes): they validate without checks and output nothing. */
  extraNodes?: readonly string[];
}

export function knownNodes(): string[] {
  return Object.keys(transcript().objectInfo);
}

/** The file lists that are the server's own, by node and input. */
const FILE_INPUTS: Record<string, Record<string, (env: NodeEnv) => string[]>> = {
  CheckpointLoaderSimple: { ckpt_name: (env) => env.checkpoints },
  UpscaleModelLoader: { model_name: (env) => env.upscaleModels },
  LoraLoader: { lora_name: (env) => env.loras ?? [] },
  LoadImage: { image: (env) => env.inputFiles() },
  LoadImageMask: { image: (env) => env.inputFiles() },
};

/**
 * One node's /object_info entry as the real server sends it: links as `["IMAGE"]` or `["IMAGE", {tooltip}]`, combos
 * as `[[…]]`, `[[…], {…}]` or the newer `["COMBO", {options}]`; `comboSpec` turns the checkpoint list into the
 * newer form too (servers after 0.3.64 use it more widely).
 */
export function objectInfo(name: string, env: NodeEnv, comboSpec: boolean): NodeInfo {
  const info = structuredClone(transcript().objectInfo[name]![name]!);
  for (const [input, list] of Object.entries(FILE_INPUTS[name] ?? {})) {
    const spec = info.input.required?.[input];
    if (spec === undefined) continue;
    if (spec[0] === 'COMBO') spec[1] = { ...(spec[1] as object), options: list(env) };
    else if (comboSpec && name === 'CheckpointLoaderSimple')
      info.input.required![input] = ['COMBO', { ...((spec[1] as object | undefined) ?? {}), options: list(env) }];
    else spec[0] = list(env);
  }
  return info;
}

/** The specs validation reads: the real ones, with the fake's file lists. */
export function inputSpecs(name: string, env: NodeEnv): NodeInfo | undefined {
  return transcript().objectInfo[name] === undefined ? undefined : objectInfo(name, env, false);
}

export type Graph = Record<string, { class_type?: string; inputs?: Record<string, unknown> }>;

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
export function outputSize(
  graph: Graph,
  id: string,
  fileSize: (name: string) => { width: number; height: number },
): Planes {
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
        result = from(
          node.class_type === 'KSampler' ? 'latent_image' : node.class_type === 'VAEDecode' ? 'samples' : 'samples',
        );
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
        result = {
          width: Math.round(p.width * n('scale_by')),
          height: Math.round(p.height * n('scale_by')),
          batch: p.batch,
        };
        break;
      }
      case 'ImageScale': {
        const p = from('image');
        result = { width: n('width'), height: n('height'), batch: p.batch };
        break;
      }
      case 'SaveImage':
      case 'PreviewImage':
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
