import { asCount, asNumber, asSeed, asText, lora, newFill, put, putLoras, type Fill } from './fields.js';
import { isObject, type JsonObject } from './json.js';

/** A model reference: `{name, hash, base}` (4+), `{model_name, base_model}` (3.x), or a bare name. */
function modelName(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!isObject(value)) return undefined;
  return asText(value['name']) ?? asText(value['model_name']);
}

/** One LoRA: `{model: {name}, weight}` (4+) or `{lora: {model_name}, weight}` (3.x). */
function loraOf(entry: unknown) {
  if (!isObject(entry)) return undefined;
  const ref = entry['model'] ?? entry['lora'];
  return lora(modelName(ref), entry['weight'], isObject(ref) ? ref['hash'] : undefined);
}

/** InvokeAI 3+ `invokeai_metadata` (or the metadata node of `invokeai_graph`). */
export function readInvokeV3(meta: JsonObject): Fill {
  const fill = newFill();
  put(fill, 'prompt', meta['positive_prompt'], asText, 'positive_prompt');
  put(fill, 'negativePrompt', meta['negative_prompt'], asText, 'negative_prompt');
  put(fill, 'seed', meta['seed'], asSeed, 'seed');
  put(fill, 'steps', meta['steps'], asCount, 'steps');
  put(fill, 'guidance', meta['cfg_scale'], asNumber, 'cfg_scale');
  // InvokeAI's "scheduler" (euler_a, dpmpp_2m_k, …) names what A1111 and Atelier call the sampler.
  put(fill, 'sampler', meta['scheduler'], asText, 'scheduler');
  put(fill, 'width', meta['width'], asCount, 'width');
  put(fill, 'height', meta['height'], asCount, 'height');
  put(fill, 'denoise', meta['strength'], asNumber, 'strength');
  put(fill, 'model', meta['model'], modelName, 'model');
  if (isObject(meta['model'])) put(fill, 'modelHash', meta['model']['hash'], asText, 'model.hash');
  if (Array.isArray(meta['loras'])) putLoras(fill, meta['loras'].map(loraOf));
  return fill;
}

/** The metadata node InvokeAI 3 puts in its graph (`core_metadata`, earlier `metadata_accumulator`). */
export function graphMetadata(graph: JsonObject): JsonObject | undefined {
  const nodes = isObject(graph['nodes'])
    ? Object.values(graph['nodes'])
    : Array.isArray(graph['nodes'])
      ? graph['nodes']
      : [];
  return nodes
    .filter(isObject)
    .find(
      (node) =>
        node['type'] === 'core_metadata' ||
        node['type'] === 'metadata_accumulator' ||
        Object.hasOwn(node, 'positive_prompt'),
    );
}
