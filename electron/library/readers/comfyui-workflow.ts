import { isObject, setOwn, type JsonObject } from './json.js';
import { MAX_DEPTH } from './comfyui-graph.js';

/**
 * The UI workflow keeps widget values by position, not by name: the names of the core nodes the walk reads,
 * in the order ComfyUI writes them (`control_after_generate` is the UI's extra widget after a seed).
 */
const WIDGETS: Record<string, string[]> = {
  KSampler: ['seed', 'control_after_generate', 'steps', 'cfg', 'sampler_name', 'scheduler', 'denoise'],
  KSamplerAdvanced: ['add_noise', 'noise_seed', 'control_after_generate', 'steps', 'cfg', 'sampler_name', 'scheduler'],
  CLIPTextEncode: ['text'],
  CLIPTextEncodeSDXL: ['width', 'height', 'crop_w', 'crop_h', 'target_width', 'target_height', 'text_g', 'text_l'],
  CLIPTextEncodeFlux: ['clip_l', 't5xxl', 'guidance'],
  CLIPTextEncodeSD3: ['clip_l', 'clip_g', 't5xxl'],
  FluxGuidance: ['guidance'],
  CheckpointLoaderSimple: ['ckpt_name'],
  UNETLoader: ['unet_name'],
  LoraLoader: ['lora_name', 'strength_model', 'strength_clip'],
  LoraLoaderModelOnly: ['lora_name', 'strength_model'],
  EmptyLatentImage: ['width', 'height', 'batch_size'],
  EmptySD3LatentImage: ['width', 'height', 'batch_size'],
  LatentUpscale: ['upscale_method', 'width', 'height'],
  RandomNoise: ['noise_seed'],
  KSamplerSelect: ['sampler_name'],
  BasicScheduler: ['scheduler', 'steps', 'denoise'],
  CFGGuider: ['cfg'],
  PrimitiveNode: ['value'],
};

type Source = [string, number];

/** Link id → the output it comes from, with Reroute nodes passed through. */
function linkSources(workflow: JsonObject, nodes: JsonObject[]): Map<unknown, Source> {
  const reroutes = new Map<string, unknown>();
  for (const node of nodes) {
    const first: unknown = Array.isArray(node['inputs']) ? node['inputs'][0] : undefined;
    if (node['type'] === 'Reroute' && isObject(first)) reroutes.set(String(node['id']), first['link']);
  }
  const raw = new Map<unknown, Source>();
  for (const link of Array.isArray(workflow['links']) ? workflow['links'] : []) {
    if (Array.isArray(link) && link.length >= 3) raw.set(String(link[0]), [String(link[1]), Number(link[2])]);
  }
  const resolved = new Map<unknown, Source>();
  for (const [id, source] of raw) {
    let current: Source | undefined = source;
    for (let depth = 0; current !== undefined && reroutes.has(current[0]) && depth < MAX_DEPTH; depth++) {
      current = raw.get(String(reroutes.get(current[0])));
    }
    if (current !== undefined) resolved.set(id, current);
  }
  return resolved;
}

function nodeInputs(node: JsonObject, sources: Map<unknown, Source>): JsonObject {
  const inputs: JsonObject = {};
  const values = node['widgets_values'];
  const names = WIDGETS[String(node['type'])] ?? [];
  if (Array.isArray(values)) names.slice(0, values.length).forEach((name, i) => setOwn(inputs, name, values[i]));
  else if (isObject(values)) for (const [name, value] of Object.entries(values)) setOwn(inputs, name, value);
  for (const slot of Array.isArray(node['inputs']) ? node['inputs'] : []) {
    if (!isObject(slot) || typeof slot['name'] !== 'string') continue;
    const source = sources.get(String(slot['link']));
    if (source !== undefined) setOwn(inputs, slot['name'], source);
  }
  return inputs;
}

/** The UI workflow in the API graph's shape (`{id: {class_type, inputs}}`), for files that carry only it. */
export function workflowToApi(workflow: JsonObject): JsonObject {
  const nodes = (Array.isArray(workflow['nodes']) ? workflow['nodes'] : []).filter(isObject);
  const sources = linkSources(workflow, nodes);
  const api: JsonObject = {};
  for (const node of nodes) {
    if (typeof node['type'] !== 'string' || node['type'] === 'Reroute') continue;
    setOwn(api, String(node['id']), { class_type: node['type'], inputs: nodeInputs(node, sources) });
  }
  return api;
}
