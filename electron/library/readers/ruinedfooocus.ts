import { asCount, asNumber, asSeed, asText, lora, newFill, put, putLoras, type Fill } from './fields.js';
import { isObject, parseObject, type JsonObject } from './json.js';
import type { GeneratorRead, GeneratorReader, LoraRef, TextMap } from './types.js';

/** `[hash, "1.0 - folder/name.safetensors"]`, as RuinedFooocus' modules/async_worker.py writes each LoRA. */
function loraOf(entry: unknown): LoraRef | undefined {
  if (!Array.isArray(entry) || typeof entry[1] !== 'string') return undefined;
  const text = entry[1];
  const dash = text.indexOf(' - ');
  if (dash < 0) return lora(text, undefined, entry[0]);
  return lora(text.slice(dash + 3), text.slice(0, dash).trim(), entry[0]);
}

/** Older files wrote the LoRAs as one text, `<name:weight>,<name:weight>`; `None` is an empty slot. */
function lorasOfText(text: string): Array<LoraRef | undefined> {
  return text.split(',').map((part) => {
    const body = part.trim().replace(/^<|>$/g, '');
    const colon = body.lastIndexOf(':');
    const name = colon < 0 ? body : body.slice(0, colon);
    return name === 'None' || name === '' ? undefined : lora(name, colon < 0 ? undefined : body.slice(colon + 1));
  });
}

function read(meta: JsonObject): Fill {
  const fill = newFill();
  put(fill, 'prompt', meta['Prompt'], asText, 'Prompt');
  // An empty negative is written as ", ": that is no negative prompt.
  const negative = asText(meta['Negative']);
  if (negative !== undefined && negative.replace(/[\s,]/g, '') !== '') fill.settings.negativePrompt = negative;
  put(fill, 'seed', meta['seed'], asSeed, 'seed');
  put(fill, 'steps', meta['steps'], asCount, 'steps');
  put(fill, 'guidance', meta['cfg'], asNumber, 'cfg');
  put(fill, 'sampler', meta['sampler_name'], asText, 'sampler_name');
  put(fill, 'scheduler', meta['scheduler'], asText, 'scheduler');
  put(fill, 'model', meta['base_model_name'], asText, 'base_model_name');
  put(fill, 'modelHash', meta['base_model_hash'], asText, 'base_model_hash');
  put(fill, 'width', meta['width'], asCount, 'width');
  put(fill, 'height', meta['height'], asCount, 'height');
  put(fill, 'denoise', meta['denoise'], asNumber, 'denoise');
  const loras = meta['loras'];
  if (Array.isArray(loras)) putLoras(fill, loras.map(loraOf));
  else if (typeof loras === 'string') putLoras(fill, lorasOfText(loras));
  return fill;
}

/** RuinedFooocus: PNG `parameters` = JSON with `"software": "RuinedFooocus"` and `Prompt`, `Negative`, `cfg`, … */
export const readRuinedfooocus: GeneratorReader = (texts: TextMap): GeneratorRead | undefined => {
  const text = texts.get('parameters');
  if (text === undefined || !text.includes('RuinedFooocus')) return undefined;
  const meta = parseObject(text);
  if (meta === undefined || !isObject(meta) || meta['software'] !== 'RuinedFooocus') return undefined;
  return { source: 'ruinedfooocus', ...read(meta) };
};
