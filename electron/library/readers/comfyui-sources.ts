import { xmpOf, xmpProperty } from './xmp.js';
import { civitaiSummary } from './comfyui-civitai.js';
import { isObject, parseJson, type JsonObject } from './json.js';
import type { TextMap } from './types.js';

/** The ComfyUI graphs a file carries, wherever the container kept them. */
export interface ComfySources {
  /** The API graph (`prompt`), when it parsed to an object. */
  prompt?: JsonObject;
  /** The UI graph (`workflow`), when it parsed to an object. */
  workflow?: JsonObject;
  /** True when any text is ComfyUI's, even one that did not parse. */
  claimed: boolean;
  /** The graph is one Civitai's generator wrote (its `extraMetadata` or `extra.airs` beside the nodes). */
  civitai?: boolean;
  /** Civitai's own summary of the generation (`extraMetadata`). */
  civitaiSummary?: JsonObject;
  problems: string[];
}

const looksLikeApiGraph = (value: JsonObject): boolean =>
  Object.values(value).some((node) => isObject(node) && typeof node['class_type'] === 'string');
const looksLikeWorkflow = (value: JsonObject): boolean => Array.isArray(value['nodes']);

function take(sources: ComfySources, kind: 'prompt' | 'workflow', value: unknown, where: string): void {
  if (typeof value === 'string') {
    const parsed = parseJson(value);
    if (parsed.ok) take(sources, kind, parsed.value, where);
    // An unparseable graph is still ComfyUI's when it names the keys only ComfyUI writes.
    else if (/"(class_type|links|nodes)"/.test(value)) {
      sources.claimed = true;
      sources.problems.push(
        `${where === kind ? kind : `${where} ${kind}`}: not valid JSON (${parsed.reason.slice(0, 80)})`,
      );
    }
    return;
  }
  const fits = isObject(value) && (kind === 'prompt' ? looksLikeApiGraph(value) : looksLikeWorkflow(value));
  if (!fits || sources[kind] !== undefined) return;
  sources[kind] = value;
  sources.claimed = true;
}

/** Some writers put UTF-16 into an ASCII tag: its NULs between letters go, no JSON holds a raw NUL. */
const withoutNuls = (text: string): string => (text.includes('\0') ? text.replace(/\0/g, '') : text);

/**
 * An EXIF text of a JPEG or WebP (ImageDescription, Make, Model, UserComment, …): `prompt:{…}` / `workflow:{…}`
 * (ComfyUI's WebP save, Save Image Extended, Image Saver), `{"prompt": …, "workflow": …}` (Extended Image
 * Formats), or the API graph itself (Civitai, with its `extra` and `extraMetadata` beside the nodes).
 */
function fromExifText(sources: ComfySources, key: string, raw: string): void {
  const text = withoutNuls(raw);
  const prefixed = /^\s*(prompt|workflow)\s*:\s*(?=\{)/i.exec(text);
  if (prefixed !== null) {
    take(sources, prefixed[1]!.toLowerCase() as 'prompt' | 'workflow', text.slice(prefixed[0].length), key);
    return;
  }
  if (!/^\s*\{/.test(text) || !/"(class_type|prompt|workflow|nodes)"/.test(text)) return;
  const parsed = parseJson(text);
  if (!parsed.ok || !isObject(parsed.value)) {
    if (/"class_type"/.test(text)) {
      sources.claimed = true;
      sources.problems.push(`${key}: not valid JSON`);
    }
    return;
  }
  const value = parsed.value;
  if (looksLikeApiGraph(value)) {
    take(sources, 'prompt', value, key);
    const extra = value['extra'];
    if (value['extraMetadata'] !== undefined || (isObject(extra) && extra['airs'] !== undefined))
      sources.civitai = true;
    const summary = civitaiSummary(value);
    if (summary !== undefined) sources.civitaiSummary = summary;
    return;
  }
  // A workflow alone must also have links: InvokeAI's and others' JSON has `nodes` too.
  if (looksLikeWorkflow(value) && Array.isArray(value['links'])) {
    take(sources, 'workflow', value, key);
    return;
  }
  take(sources, 'prompt', value['prompt'], key);
  take(sources, 'workflow', value['workflow'], key);
}

/** The ComfyUI frontend's AVIF and WebP saves: both graphs as XMP properties `comfy:prompt` and `comfy:workflow`. */
function fromXmp(sources: ComfySources, xmp: string | undefined): void {
  if (xmp === undefined || !xmp.includes('comfy:')) return;
  for (const kind of ['prompt', 'workflow'] as const) {
    const text = xmpProperty(xmp, `comfy:${kind}`);
    if (text?.trimStart().startsWith('{')) take(sources, kind, text, `xmp comfy:${kind}`);
  }
}

export function comfySources(texts: TextMap): ComfySources {
  const sources: ComfySources = { claimed: false, problems: [] };
  const prompt = texts.get('prompt');
  const workflow = texts.get('workflow');
  if (prompt?.trimStart().startsWith('{')) take(sources, 'prompt', prompt, 'prompt');
  if (workflow?.trimStart().startsWith('{')) take(sources, 'workflow', workflow, 'workflow');
  for (const [key, text] of texts) if (key.startsWith('exif:')) fromExifText(sources, key, text);
  fromXmp(sources, xmpOf(texts));
  return sources;
}
