import { stringEnds } from '../../media/string-ends.js';
import { a1111FromText, looksLikeJson } from './a1111.js';
import { asText, lora } from './fields.js';
import { isObject, parseJson } from './json.js';
import type { GeneratorRead, GeneratorReader, LoraRef, TextMap } from './types.js';

const RESOURCES = 'Civitai resources:';
const LORA_TYPES = new Set(['lora', 'locon', 'lycoris', 'dora']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The JSON array or object that follows `label` in the text, found by counting brackets outside strings (A1111's
 * params rule cuts the value at its first comma). One pass from the label: linear.
 */
export function jsonAfter(text: string, label: string): unknown {
  const at = text.lastIndexOf(label);
  if (at < 0) return undefined;
  let start = at + label.length;
  while (text.charCodeAt(start) === 0x20) start += 1;
  const open = text[start];
  if (open !== '[' && open !== '{') return undefined;
  const ends = stringEnds(text);
  let depth = 0;
  for (let i = start; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') i = ends(i + 1);
    else if (c === '[' || c === '{') depth += 1;
    else if (c === ']' || c === '}') {
      depth -= 1;
      if (depth === 0) {
        const parsed = parseJson(text.slice(start, i + 1));
        return parsed.ok ? parsed.value : undefined;
      }
    }
  }
  return undefined;
}

/** The checkpoint's name and the LoRAs (with their weights) of Civitai's resource list. */
function fromResources(list: unknown): { model?: string; loras: LoraRef[] } {
  const out: { model?: string; loras: LoraRef[] } = { loras: [] };
  if (!Array.isArray(list)) return out;
  for (const entry of list) {
    if (!isObject(entry)) continue;
    const type = asText(entry['type'])?.toLowerCase();
    const name = asText(entry['modelName']);
    if (type === 'checkpoint' && out.model === undefined && name !== undefined) out.model = name;
    else if (type !== undefined && LORA_TYPES.has(type)) {
      const ref = lora(name, entry['weight']);
      if (ref !== undefined) out.loras.push(ref);
    }
  }
  return out;
}

/**
 * Civitai's generator (JPEG from the site): A1111 infotext in the EXIF UserComment, ending in
 * `Civitai resources: [{type, modelName, modelVersionName, weight}]` and `Civitai metadata: {…}`; without those, the
 * job's GUID the site writes as EXIF Software says so.
 */
export const readCivitai: GeneratorReader = (texts: TextMap): GeneratorRead | undefined => {
  // The site also names each JPEG's job by a GUID in EXIF Software; A1111 writes no Software into a JPEG.
  const siteJob = UUID.test(texts.get('exif:Software')?.trim() ?? '');
  for (const key of ['exif:UserComment', 'parameters']) {
    const text = texts.get(key);
    if (text === undefined) continue;
    const marked = text.includes(RESOURCES) || text.includes('Civitai metadata:');
    if (!marked && !(siteJob && key === 'exif:UserComment' && text.includes('\nSteps: '))) continue;
    if (looksLikeJson(text)) continue;
    const read = a1111FromText(text);
    const resources = fromResources(jsonAfter(text, RESOURCES));
    const settings = { ...read.settings };
    if (resources.model !== undefined) settings.model = resources.model;
    if (settings.loras === undefined && resources.loras.length > 0) settings.loras = resources.loras;
    return { ...read, source: 'civitai', settings };
  }
  return undefined;
};
