/** ComfyUI SaveImage chunks: `prompt` (API graph) and `workflow` (UI graph), JSON (docs/provider-protocols.md §4.2). */

export interface ComfyMetadata {
  /** The API-format graph, when the chunk is valid JSON. */
  graph?: Record<string, unknown>;
  workflow?: unknown;
  prompt?: string;
  negativePrompt?: string;
  seed?: number;
  steps?: number;
  cfgScale?: number;
  sampler?: string;
  scheduler?: string;
  width?: number;
  height?: number;
  model?: string;
}

interface Node {
  class_type?: unknown;
  inputs?: Record<string, unknown>;
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function asNode(value: unknown): Node | undefined {
  return typeof value === 'object' && value !== null ? (value as Node) : undefined;
}

/** Follows a `[nodeId, outputIndex]` link to its node. */
function linked(graph: Record<string, unknown>, link: unknown): Node | undefined {
  if (!Array.isArray(link) || link.length < 1) return undefined;
  return asNode(graph[String(link[0])]);
}

/** A text input may be a literal or a link to a primitive/string node: follow links a few hops. */
function textOf(graph: Record<string, unknown>, node: Node | undefined, depth = 0): string | undefined {
  if (node === undefined || depth > 4) return undefined;
  const text = node.inputs?.['text'] ?? node.inputs?.['text_g'] ?? node.inputs?.['value'] ?? node.inputs?.['string'];
  if (typeof text === 'string') return text;
  return textOf(graph, linked(graph, text), depth + 1);
}

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function readComfyMetadata(promptText: string | undefined, workflowText: string | undefined): ComfyMetadata {
  const out: ComfyMetadata = {};
  const workflow = parseJson(workflowText);
  if (workflow !== undefined) out.workflow = workflow;
  const graph = parseJson(promptText);
  if (typeof graph !== 'object' || graph === null || Array.isArray(graph)) return out;
  const nodes = graph as Record<string, unknown>;
  out.graph = nodes;
  const sampler = Object.values(nodes)
    .map(asNode)
    .find((n) => typeof n?.class_type === 'string' && /KSampler/.test(n.class_type));
  if (sampler?.inputs !== undefined) {
    const inputs = sampler.inputs;
    const seed = num(inputs['seed']) ?? num(inputs['noise_seed']);
    if (seed !== undefined) out.seed = seed;
    const steps = num(inputs['steps']);
    if (steps !== undefined) out.steps = steps;
    const cfg = num(inputs['cfg']);
    if (cfg !== undefined) out.cfgScale = cfg;
    const samplerName = str(inputs['sampler_name']);
    if (samplerName !== undefined) out.sampler = samplerName;
    const scheduler = str(inputs['scheduler']);
    if (scheduler !== undefined) out.scheduler = scheduler;
    const positive = textOf(nodes, linked(nodes, inputs['positive']));
    if (positive !== undefined) out.prompt = positive;
    const negative = textOf(nodes, linked(nodes, inputs['negative']));
    if (negative !== undefined) out.negativePrompt = negative;
    const latent = linked(nodes, inputs['latent_image']);
    const width = num(latent?.inputs?.['width']);
    const height = num(latent?.inputs?.['height']);
    if (width !== undefined) out.width = width;
    if (height !== undefined) out.height = height;
  }
  const checkpoint = Object.values(nodes)
    .map(asNode)
    .find((n) => typeof n?.inputs?.['ckpt_name'] === 'string');
  const model = str(checkpoint?.inputs?.['ckpt_name']);
  if (model !== undefined) out.model = model;
  return out;
}
