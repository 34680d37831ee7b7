import type { LoraSpec } from '../../../shared/contract.js';
import type { ApiGraph } from './workflow.js';

/** Node ids of the chain: after the default graphs' own (3 … 16), so none is taken. */
const FIRST_ID = 30;

const isLink = (value: unknown, node: string, output: number): boolean =>
  Array.isArray(value) && value.length === 2 && String(value[0]) === node && value[1] === output;

/**
 * The default graphs with a chain of LoraLoader nodes (lora_name, strength_model, strength_clip, as /object_info
 * describes them) between the checkpoint loader and everything that used its MODEL and CLIP outputs: the sampler and
 * both text encoders now take the last loader's. The VAE still comes from the checkpoint. Without LoRAs, unchanged.
 */
export function withLoraChain(graph: ApiGraph, loras: readonly LoraSpec[], checkpoint = '4'): ApiGraph {
  if (loras.length === 0) return graph;
  const out = structuredClone(graph);
  let model: [string, number] = [checkpoint, 0];
  let clip: [string, number] = [checkpoint, 1];
  const chain = new Set<string>();
  loras.forEach((lora, index) => {
    const id = String(FIRST_ID + index);
    out[id] = {
      class_type: 'LoraLoader',
      inputs: { model, clip, lora_name: lora.name, strength_model: lora.weight, strength_clip: lora.weight },
    };
    chain.add(id);
    model = [id, 0];
    clip = [id, 1];
  });
  for (const [id, node] of Object.entries(out)) {
    if (chain.has(id)) continue;
    for (const [name, value] of Object.entries(node.inputs)) {
      if (isLink(value, checkpoint, 0)) node.inputs[name] = model;
      else if (isLink(value, checkpoint, 1)) node.inputs[name] = clip;
    }
  }
  return out;
}
