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
  problems: string[];
}

const looksLikeApiGraph = (value: JsonObject): boolean =>
  Object.values(value).some((node) => isObject(node) && typeof node['class_type'] === 'string');
const looksLikeWorkflow = (value: JsonObject): boolean => Array.isArray(value['nodes']);

/** PNG keywords, then WebP EXIF `Make`/`Model` written as `workflow:{…}` / `prompt:{…}`. */
function graphTexts(texts: TextMap): { prompt?: string; workflow?: string } {
  const found: { prompt?: string; workflow?: string } = {};
  const prompt = texts.get('prompt');
  const workflow = texts.get('workflow');
  if (prompt !== undefined) found.prompt = prompt;
  if (workflow !== undefined) found.workflow = workflow;
  for (const key of ['exif:Make', 'exif:Model']) {
    const text = texts.get(key);
    const match = text === undefined ? null : /^\s*(prompt|workflow)\s*:\s*(\{[\s\S]*)$/.exec(text);
    if (match !== null) found[match[1] as 'prompt' | 'workflow'] ??= match[2]!;
  }
  return found;
}

function take(sources: ComfySources, kind: 'prompt' | 'workflow', value: unknown): void {
  if (typeof value === 'string') {
    const parsed = parseJson(value);
    if (parsed.ok) take(sources, kind, parsed.value);
    // An unparseable graph is still ComfyUI's when it names the keys only ComfyUI writes.
    else if (/"(class_type|links|nodes)"/.test(value)) {
      sources.claimed = true;
      sources.problems.push(`${kind}: not valid JSON (${parsed.reason.slice(0, 80)})`);
    }
    return;
  }
  const fits = isObject(value) && (kind === 'prompt' ? looksLikeApiGraph(value) : looksLikeWorkflow(value));
  if (!fits || sources[kind] !== undefined) return;
  sources[kind] = value;
  sources.claimed = true;
}

/** JPEG: EXIF UserComment holding `{"prompt": …, "workflow": …}`, graphs as objects or as JSON text. */
function fromUserComment(sources: ComfySources, text: string | undefined): void {
  if (text === undefined || !/^\s*\{\s*"prompt"\s*:/.test(text)) return;
  const parsed = parseJson(text);
  if (!parsed.ok || !isObject(parsed.value)) {
    sources.claimed = true;
    sources.problems.push('exif:UserComment: not valid JSON');
    return;
  }
  take(sources, 'prompt', parsed.value['prompt']);
  take(sources, 'workflow', parsed.value['workflow']);
}

export function comfySources(texts: TextMap): ComfySources {
  const sources: ComfySources = { claimed: false, problems: [] };
  const found = graphTexts(texts);
  if (found.prompt?.trimStart().startsWith('{')) take(sources, 'prompt', found.prompt);
  if (found.workflow?.trimStart().startsWith('{')) take(sources, 'workflow', found.workflow);
  fromUserComment(sources, texts.get('exif:UserComment'));
  return sources;
}
