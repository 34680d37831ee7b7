import { isInteger, parse } from 'lossless-json';
import { AppError } from '../../../shared/errors.js';

/**
 * Placeholders a user workflow may contain. `{{loras}}` is the request's LoRAs as A1111-style text,
 * `<lora:name:weight> <lora:name:weight>`, the input LoRA-tag nodes read (LoraTagLoader's `text`, rgthree's Power
 * Prompt); empty without LoRAs. A JSON string that is exactly "{{name}}" becomes the typed value
 * (numbers stay numbers, so "{{seed}}" → 1234); inside a longer string ("a photo of {{prompt}}") it is substituted
 * as text. Any other {{...}} is an error, so a typo cannot silently send a literal "{{promt}}".
 */
export const PLACEHOLDERS = [
  'prompt',
  'negative_prompt',
  'seed',
  'steps',
  'cfg',
  'width',
  'height',
  'batch_size',
  'model',
  'sampler',
  'scheduler',
  'input_image',
  'denoise',
  'mask',
  'loras',
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
/** A bigint (a seed beyond 2^53) is sent as its exact digits (http/request.ts serialises it losslessly). */
type Value = string | number | bigint | undefined;
/** The image placeholders have values only when the job works from an image; an absent {{loras}} is empty. */
export type WorkflowValues = Record<Exclude<Placeholder, 'input_image' | 'denoise' | 'mask' | 'loras'>, Value> &
  Partial<Record<'input_image' | 'denoise' | 'mask' | 'loras', Value>>;
export type ApiGraph = Record<string, { class_type: string; inputs: Record<string, unknown>; _meta?: unknown }>;

const TOKEN = /\{\{\s*([a-zA-Z_]+)\s*\}\}/g;
const WHOLE = /^\{\{\s*([a-zA-Z_]+)\s*\}\}$/;

function invalid(message: string): AppError {
  return new AppError('invalid_request', message, { details: { field: 'workflow' } });
}

/**
 * The default text-to-image graph (node ids and wiring as ComfyUI's websockets_api_example.py,
 * docs/provider-protocols.md §3.2).
 */
export function defaultWorkflow(): ApiGraph {
  return {
    '3': {
      class_type: 'KSampler',
      inputs: {
        seed: '{{seed}}',
        steps: '{{steps}}',
        cfg: '{{cfg}}',
        sampler_name: '{{sampler}}',
        scheduler: '{{scheduler}}',
        denoise: 1,
        model: ['4', 0],
        positive: ['6', 0],
        negative: ['7', 0],
        latent_image: ['5', 0],
      },
    },
    '4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: '{{model}}' } },
    '5': {
      class_type: 'EmptyLatentImage',
      inputs: { width: '{{width}}', height: '{{height}}', batch_size: '{{batch_size}}' },
    },
    '6': { class_type: 'CLIPTextEncode', inputs: { text: '{{prompt}}', clip: ['4', 1] } },
    '7': { class_type: 'CLIPTextEncode', inputs: { text: '{{negative_prompt}}', clip: ['4', 1] } },
    '8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
    '9': { class_type: 'SaveImage', inputs: { filename_prefix: 'Atelier', images: ['8', 0] } },
  };
}

function exactNumber(digits: string): number | bigint {
  const value = Number(digits);
  return isInteger(digits) && !Number.isSafeInteger(value) ? BigInt(digits) : value;
}

/** Parses a user workflow and checks it is API format ("Save (API Format)"), not the UI format with nodes/links. */
export function parseWorkflow(text: string): ApiGraph {
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch (error) {
    throw invalid(
      `The ComfyUI workflow is not valid JSON (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw invalid('The ComfyUI workflow must be a JSON object of nodes.');
  // Read again keeping integers past 2^53 (a 64-bit seed written into the workflow) as bigints, sent back digit for
  // digit.
  json = parse(text, null, { parseNumber: exactNumber, onDuplicateKey: (info) => info.newValue });
  const record = json as Record<string, unknown>;
  if (Array.isArray(record.nodes) && Array.isArray(record.links)) {
    throw invalid('This is a UI-format ComfyUI workflow. Export it with "Save (API Format)" and paste that instead.');
  }
  const entries = Object.entries(record);
  if (entries.length === 0) throw invalid('The ComfyUI workflow has no nodes.');
  for (const [id, node] of entries) {
    const ok =
      node !== null &&
      typeof node === 'object' &&
      typeof (node as { class_type?: unknown }).class_type === 'string' &&
      typeof (node as { inputs?: unknown }).inputs === 'object';
    if (!ok)
      throw invalid(`Node "${id}" of the ComfyUI workflow has no class_type and inputs: is this an API-format export?`);
  }
  return record as ApiGraph;
}

/** Every placeholder name used anywhere in the graph. */
export function placeholdersIn(graph: ApiGraph): Set<string> {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') for (const match of value.matchAll(TOKEN)) found.add(match[1]!);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(graph);
  return found;
}

/** Rejects unknown placeholders and a workflow that would ignore the prompt. */
export function checkPlaceholders(graph: ApiGraph): Set<string> {
  const used = placeholdersIn(graph);
  const unknown = [...used].filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw invalid(
      `The ComfyUI workflow uses unknown placeholder${unknown.length === 1 ? '' : 's'} ` +
        `${unknown.map((n) => `{{${n}}}`).join(', ')}. Known: ${PLACEHOLDERS.map((n) => `{{${n}}}`).join(', ')}.`,
    );
  }
  if (!used.has('prompt'))
    throw invalid('The ComfyUI workflow has no {{prompt}} placeholder, so the prompt would be ignored.');
  return used;
}

/** A deep copy of the graph with every placeholder filled (numbers as numbers where the whole string is one). */
export function fillWorkflow(graph: ApiGraph, values: WorkflowValues): ApiGraph {
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const whole = WHOLE.exec(value);
      if (whole !== null) return values[whole[1] as Placeholder] ?? '';
      return value.replace(TOKEN, (_m, name: string) => String(values[name as Placeholder] ?? ''));
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  return fill(graph) as ApiGraph;
}

/**
 * The output nodes Atelier keeps images from: its SaveImage nodes, else (a workflow that saves nothing) its
 * PreviewImage nodes.
 */
export function imageOutputs(graph: ApiGraph): string[] {
  const of = (type: string) =>
    Object.entries(graph)
      .filter(([, node]) => node.class_type === type)
      .map(([id]) => id);
  const saved = of('SaveImage');
  return saved.length > 0 ? saved : of('PreviewImage');
}
