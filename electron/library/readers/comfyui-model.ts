import { asCount, asNumber, asText, lora } from './fields.js';
import { follow, input, MAX_DEPTH, valueOf, type ComfyNode, type Walk } from './comfyui-graph.js';
import type { LoraRef } from './types.js';

// Where loaders name the model file: checkpoints, UNET/GGUF loaders, diffusers folders.
const MODEL_INPUTS = ['ckpt_name', 'unet_name', 'model_name', 'model_path'];

export interface ModelRead {
  model?: string;
  /** In the order they are applied to the model, nearest the loader first. */
  loras: LoraRef[];
}

/** Follows a `model` link back through LoRA loaders and patches to the loader that names the file. */
export function readModel(walk: Walk, from: ComfyNode, name: string): ModelRead {
  const loras: LoraRef[] = [];
  const visited = new Set<string>();
  let target = follow(walk, from, name, input(from, name));
  for (let depth = 0; target !== undefined && depth < MAX_DEPTH && !visited.has(target.node.id); depth++) {
    const node = target.node;
    visited.add(node.id);
    const file = MODEL_INPUTS.map((key) => asText(valueOf(walk, node, key))).find((text) => text !== undefined);
    if (file !== undefined) return { model: file, loras: loras.reverse() };
    const ref = lora(valueOf(walk, node, 'lora_name'), valueOf(walk, node, 'strength_model'));
    if (ref !== undefined) loras.push(ref);
    target = follow(walk, node, 'model', input(node, 'model'));
  }
  return { loras: loras.reverse() };
}

export interface SizeRead {
  width?: number;
  height?: number;
}

/** LatentUpscaleBy scales the latent (1/8 of the pixels), rounding there: the pixel size ComfyUI ends up with. */
const scaled = (pixels: number, scale: number): number => (scale === 1 ? pixels : Math.round((pixels / 8) * scale) * 8);

/** Follows the latent back (through upscales and earlier samplers) to the node that sets its size. */
export function readSize(walk: Walk, from: ComfyNode): SizeRead {
  const visited = new Set<string>();
  let node: ComfyNode | undefined = from;
  let name = 'latent_image';
  let scale = 1;
  for (let depth = 0; node !== undefined && depth < MAX_DEPTH; depth++) {
    const target = follow(walk, node, name, input(node, name));
    if (target === undefined || visited.has(target.node.id)) return {};
    node = target.node;
    visited.add(node.id);
    const width = asCount(valueOf(walk, node, 'width'));
    const height = asCount(valueOf(walk, node, 'height'));
    if (width !== undefined && height !== undefined)
      return { width: scaled(width, scale), height: scaled(height, scale) };
    scale *= asNumber(valueOf(walk, node, 'scale_by')) ?? 1;
    name = ['latent_image', 'samples', 'latent'].find((key) => input(target.node, key) !== undefined) ?? '';
  }
  return {};
}
