import { asCount, asNumber, asText } from './fields.js';
import { follow, input, MAX_DEPTH, type ComfyNode, type Walk } from './comfyui-graph.js';
import { lorasOf } from './comfyui-loras.js';
import { valueOf } from './comfyui-values.js';
import type { LoraRef } from './types.js';

export interface ModelRead {
  model?: string;
  /** In the order they are applied to the model, nearest the loader first. */
  loras: LoraRef[];
}

/** The first of a node's inputs for `field` that holds a text. */
export function textField(walk: Walk, node: ComfyNode, field: 'model'): string | undefined {
  for (const key of walk.table.fieldInputs(node.classType, field)) {
    const text = asText(valueOf(walk, node, key));
    if (text !== undefined && text.trim() !== '') return text;
  }
  return undefined;
}

/** A LoRA stack (Efficiency, Comfyroll) as it is applied: the stack it extends first, then its own. */
function stackLoras(walk: Walk, from: ComfyNode): LoraRef[] {
  const groups: LoraRef[][] = [];
  const visited = new Set<string>();
  let target = follow(walk, from, 'lora_stack', input(from, 'lora_stack'));
  for (let depth = 0; target !== undefined && depth < MAX_DEPTH && !visited.has(target.node.id); depth++) {
    visited.add(target.node.id);
    groups.push(lorasOf(walk, target.node));
    target = follow(walk, target.node, 'lora_stack', input(target.node, 'lora_stack'));
  }
  return groups.reverse().flat();
}

/** Follows a `model` link back through LoRA loaders and patches to the loader that names the file. */
export function readModel(walk: Walk, from: ComfyNode, name: string): ModelRead {
  // Each node's LoRAs, nearest the sampler first; turned round at the end.
  const groups: LoraRef[][] = [];
  const visited = new Set<string>();
  const done = (model?: string): ModelRead => {
    const loras = groups.reverse().flat();
    return model === undefined ? { loras } : { model, loras };
  };
  let target = follow(walk, from, name, input(from, name));
  for (let depth = 0; target !== undefined && depth < MAX_DEPTH && !visited.has(target.node.id); depth++) {
    const node = target.node;
    visited.add(node.id);
    // A loader applies its own LoRA, then its stack: as a group, both come after the model file.
    groups.push([...lorasOf(walk, node), ...stackLoras(walk, node)]);
    const file = textField(walk, node, 'model');
    if (file !== undefined) return done(file);
    target = follow(walk, node, 'model', input(node, 'model'));
  }
  return done();
}

export interface SizeRead {
  width?: number;
  height?: number;
}

/** LatentUpscaleBy scales the latent (1/8 of the pixels), rounding there: the pixel size ComfyUI ends up with. */
const scaled = (pixels: number, scale: number): number => (scale === 1 ? pixels : Math.round((pixels / 8) * scale) * 8);

function count(walk: Walk, node: ComfyNode, field: 'width' | 'height'): number | undefined {
  for (const key of walk.table.fieldInputs(node.classType, field)) {
    const found = asCount(valueOf(walk, node, key));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The size a node itself sets, when it names both sides. */
export function sizeOf(walk: Walk, node: ComfyNode): { width: number; height: number } | undefined {
  const width = count(walk, node, 'width');
  const height = count(walk, node, 'height');
  if (width !== undefined && height !== undefined) return { width, height };
  // rgthree's SDXL Empty Latent Image and other pickers name the size as text: "1216 x 832  (landscape)".
  const named = asText(valueOf(walk, node, 'dimensions') ?? valueOf(walk, node, 'resolution'));
  const match = named === undefined ? null : /^\s*(\d{1,5})\s*[x×]\s*(\d{1,5})/.exec(named);
  return match === null ? undefined : { width: Number(match[1]), height: Number(match[2]) };
}

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
    const size = sizeOf(walk, node);
    if (size !== undefined) return { width: scaled(size.width, scale), height: scaled(size.height, scale) };
    scale *= asNumber(valueOf(walk, node, 'scale_by')) ?? 1;
    name = ['latent_image', 'samples', 'latent'].find((key) => input(target.node, key) !== undefined) ?? '';
  }
  return {};
}
