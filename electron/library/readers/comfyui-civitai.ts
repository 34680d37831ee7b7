import { asCount, asNumber, asSeed, asText } from './fields.js';
import { isObject, parseJson, type JsonObject } from './json.js';
import type { ReadSettings } from './types.js';

/** Civitai's own summary of the generation (`extraMetadata`, JSON text or an object), beside the graph it ran. */
export function civitaiSummary(graph: JsonObject): JsonObject | undefined {
  const raw = graph['extraMetadata'];
  if (isObject(raw)) return raw;
  if (typeof raw !== 'string') return undefined;
  const parsed = parseJson(raw);
  return parsed.ok && isObject(parsed.value) ? parsed.value : undefined;
}

const FIELDS: Array<[keyof ReadSettings, string, (value: unknown) => string | number | undefined]> = [
  ['prompt', 'prompt', asText],
  ['negativePrompt', 'negativePrompt', asText],
  ['seed', 'seed', asSeed],
  ['steps', 'steps', asCount],
  ['guidance', 'cfgScale', asNumber],
  ['sampler', 'sampler', asText],
  ['width', 'width', asCount],
  ['height', 'height', asCount],
];

/**
 * The settings the graph left unsaid, from Civitai's summary: an upscale-only graph has no sampler, and a hires
 * graph starts from an image the first generation made (its summary says how).
 */
export function fillFromSummary(settings: ReadSettings, summary: JsonObject): ReadSettings {
  const filled: ReadSettings = { ...settings };
  for (const [key, name, coerce] of FIELDS) {
    if (filled[key] !== undefined) continue;
    const value = coerce(summary[name]);
    if (value !== undefined && value !== '') (filled as Record<string, unknown>)[key] = value;
  }
  return filled;
}
