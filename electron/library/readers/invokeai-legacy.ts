import { splitSquareBrackets } from '../../media/square-brackets.js';
import { asCount, asNumber, asSeed, asText, newFill, put, type Fill } from './fields.js';
import { isObject, type JsonObject } from './json.js';
import type { ReadSettings } from './types.js';

/** InvokeAI 2 keeps the negative prompt in square brackets inside the prompt: "a cat [blurry, dog]". */
export function splitBrackets(text: string): { prompt: string; negativePrompt?: string } {
  const { inside, outside } = splitSquareBrackets(text);
  const negatives = inside.map((m) => m.trim()).filter((s) => s !== '');
  const prompt = outside.join(' ').replace(/\s+/g, ' ').trim();
  return negatives.length > 0 ? { prompt, negativePrompt: negatives.join(', ') } : { prompt };
}

function putPrompt(fill: Fill, text: string): void {
  const split = splitBrackets(text);
  if (split.prompt !== '') fill.settings.prompt = split.prompt;
  if (split.negativePrompt !== undefined) fill.settings.negativePrompt = split.negativePrompt;
}

/** `image.prompt`: a list of `{prompt, weight}` (2.x) or one string (earlier). */
function promptText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return undefined;
  const parts = value.map((part) => (isObject(part) ? asText(part['prompt']) : asText(part)));
  return parts.every((part) => part !== undefined) ? parts.join(' ') : undefined;
}

/** InvokeAI 2 `sd-metadata`. */
export function readSdMetadata(meta: JsonObject): Fill {
  const fill = newFill();
  const image = isObject(meta['image']) ? meta['image'] : {};
  const prompt = promptText(image['prompt']);
  if (prompt !== undefined) putPrompt(fill, prompt);
  else put(fill, 'prompt', image['prompt'], () => undefined, 'image.prompt');
  put(fill, 'seed', image['seed'], asSeed, 'image.seed');
  put(fill, 'steps', image['steps'], asCount, 'image.steps');
  put(fill, 'guidance', image['cfg_scale'], asNumber, 'image.cfg_scale');
  put(fill, 'sampler', image['sampler'], asText, 'image.sampler');
  put(fill, 'width', image['width'], asCount, 'image.width');
  put(fill, 'height', image['height'], asCount, 'image.height');
  put(fill, 'denoise', image['strength'], asNumber, 'image.strength');
  put(fill, 'model', meta['model_weights'], asText, 'model_weights');
  put(fill, 'modelHash', meta['model_hash'], asText, 'model_hash');
  return fill;
}

// Dream's flags and the settings they set: -s steps, -S seed, -W/-H size, -C cfg, -A sampler, -f img2img strength.
const FLAGS: Array<[string, keyof ReadSettings, (value: unknown) => string | number | undefined]> = [
  ['s', 'steps', asCount],
  ['S', 'seed', asSeed],
  ['W', 'width', asCount],
  ['H', 'height', asCount],
  ['C', 'guidance', asNumber],
  ['A', 'sampler', asText],
  ['f', 'denoise', asNumber],
];

/** The `Dream` CLI line: `"a cat [blurry]" -s 50 -S 2980747362 -W 512 -H 768 -C 5.0 -A k_lms`. */
export function readDream(line: string): Fill {
  const fill = newFill();
  const quoted = /^\s*"((?:\\.|[^"\\])*)"([\s\S]*)$/.exec(line);
  const prompt =
    quoted !== null ? quoted[1]!.replace(/\\(.)/g, '$1') : (/^([\s\S]*?)(?=\s-[a-zA-Z]\s|$)/.exec(line)?.[1] ?? '');
  const rest = quoted !== null ? quoted[2]! : line.slice(prompt.length);
  putPrompt(fill, prompt);
  for (const [letter, key, coerce] of FLAGS) {
    const value = new RegExp(`(?:^|\\s)-${letter}\\s+(\\S+)`).exec(rest)?.[1];
    put(fill, key, value, coerce, `-${letter}`);
  }
  return fill;
}
