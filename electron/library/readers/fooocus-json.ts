import { asCount, asNumber, asSeed, asText, lora, newFill, put, putLoras, type Fill } from './fields.js';
import { isObject, type JsonObject } from './json.js';
import type { LoraRef } from './types.js';

/** `full_prompt` is the list of prompts the model saw (styles expanded); the typed prompt when it is missing. */
function promptOf(full: unknown, typed: unknown): unknown {
  if (Array.isArray(full) && full.length > 0 && full.every((part) => typeof part === 'string')) return full.join('\n');
  return typed;
}

/** "(1152, 896)". Trimmed first: `^\s*\(?\s*` splits a run of spaces between its two `\s*` every way, quadratic. */
function size(text: unknown): [number, number] | undefined {
  const match = typeof text === 'string' ? /^\(?\s*(\d+)\s*[,x×]\s*(\d+)\s*\)?$/.exec(text.trim()) : null;
  const width = asCount(match?.[1]);
  const height = asCount(match?.[2]);
  return width !== undefined && height !== undefined ? [width, height] : undefined;
}

/** `loras`: `[[name, weight, hash]]`; older files only `lora_combined_N` = "name : weight". */
function loras(meta: JsonObject): Array<LoraRef | undefined> {
  if (Array.isArray(meta['loras'])) {
    return meta['loras'].map((entry) =>
      Array.isArray(entry)
        ? lora(entry[0], entry[1], entry[2])
        : isObject(entry)
          ? lora(entry['name'], entry['weight'], entry['hash'])
          : undefined,
    );
  }
  return Object.entries(meta)
    .filter(([key]) => /^lora_combined_\d+$/.test(key))
    .map(([, value]) => {
      const match = typeof value === 'string' ? /^(.*\S)\s*:\s*([-\d.]+)\s*$/.exec(value) : null;
      return match === null ? undefined : lora(match[1], match[2]);
    });
}

/** Fooocus `parameters` JSON (`fooocus_scheme` = fooocus). */
export function readFooocusJson(meta: JsonObject): Fill {
  const fill = newFill();
  put(fill, 'prompt', promptOf(meta['full_prompt'], meta['prompt']), asText, 'full_prompt');
  put(
    fill,
    'negativePrompt',
    promptOf(meta['full_negative_prompt'], meta['negative_prompt']),
    asText,
    'full_negative_prompt',
  );
  put(fill, 'seed', meta['seed'], asSeed, 'seed');
  put(fill, 'steps', meta['steps'], asCount, 'steps');
  put(fill, 'guidance', meta['guidance_scale'] ?? meta['cfg'], asNumber, 'guidance_scale');
  put(fill, 'sampler', meta['sampler'], asText, 'sampler');
  put(fill, 'scheduler', meta['scheduler'], asText, 'scheduler');
  put(fill, 'model', meta['base_model'], asText, 'base_model');
  put(fill, 'modelHash', meta['base_model_hash'], asText, 'base_model_hash');
  const resolution = size(meta['resolution']);
  if (resolution !== undefined) [fill.settings.width, fill.settings.height] = resolution;
  else if (meta['resolution'] !== undefined) put(fill, 'width', meta['resolution'], () => undefined, 'resolution');
  else {
    // Older files (a PNG `Comment`) wrote the size as `width` and `height`.
    put(fill, 'width', meta['width'], asCount, 'width');
    put(fill, 'height', meta['height'], asCount, 'height');
  }
  putLoras(fill, loras(meta));
  return fill;
}
