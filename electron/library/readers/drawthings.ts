import { paramEntries } from '../../media/png/a1111-params-line.js';
import { asCount, asNumber, asSeed, asText, lora, newFill, put, putLoras, type Fill } from './fields.js';
import { isObject, parseObject, type JsonObject } from './json.js';
import type { GeneratorRead, GeneratorReader, TextMap } from './types.js';
import { xmpOf, xmpProperty } from './xmp.js';

/** "768x1024". Trimmed first, so the pattern holds one `\s*` on each side of the x only. */
function size(value: unknown): [number, number] | undefined {
  const match = typeof value === 'string' ? /^(\d+)\s*x\s*(\d+)$/.exec(value.trim()) : null;
  const width = asCount(match?.[1]);
  const height = asCount(match?.[2]);
  return width !== undefined && height !== undefined ? [width, height] : undefined;
}

/** `lora` (older) or `v2.loras` (newer): `[{file, weight}]`. */
function loras(json: JsonObject) {
  const v2 = isObject(json['v2']) ? json['v2']['loras'] : undefined;
  const list: unknown[] = Array.isArray(json['lora']) ? json['lora'] : Array.isArray(v2) ? v2 : [];
  return list.map((entry) => (isObject(entry) ? lora(entry['file'], entry['weight']) : undefined));
}

function read(json: JsonObject): Fill {
  const fill = newFill();
  put(fill, 'prompt', json['c'], asText, 'c');
  put(fill, 'negativePrompt', json['uc'], asText, 'uc');
  put(fill, 'seed', json['seed'], asSeed, 'seed');
  put(fill, 'steps', json['steps'], asCount, 'steps');
  put(fill, 'guidance', json['scale'], asNumber, 'scale');
  put(fill, 'sampler', json['sampler'], asText, 'sampler');
  put(fill, 'model', json['model'], asText, 'model');
  const dimensions = size(json['size']);
  if (dimensions !== undefined) [fill.settings.width, fill.settings.height] = dimensions;
  else put(fill, 'width', json['size'], () => undefined, 'size');
  // Draw Things writes strength 1 for text to image: only a smaller one is an image-to-image strength.
  const strength = asNumber(json['strength']);
  if (strength !== undefined && strength < 1) fill.settings.denoise = strength;
  putLoras(fill, loras(json));
  return fill;
}

/**
 * Without the JSON, the XMP description: `prompt`, a line `-negative`, then
 * `Steps: 20, Sampler: Euler A, Guidance Scale: 4.0, Seed: 1, Size: 640x480, Model: m.ckpt`.
 */
function fromDescription(text: string): Fill {
  const lines = text.split('\n');
  const params = new Map(paramEntries(lines.at(-1) ?? '').map(([key, value]) => [key.trim(), value.trim()]));
  const body = params.has('Steps') || params.has('Seed') ? lines.slice(0, -1) : lines;
  const negativeAt = body.findIndex((line) => line.startsWith('-'));
  return read({
    c: (negativeAt < 0 ? body : body.slice(0, negativeAt)).join('\n').trim(),
    uc: negativeAt < 0 ? undefined : body.slice(negativeAt).join('\n').slice(1).trim(),
    seed: params.get('Seed'),
    steps: params.get('Steps'),
    scale: params.get('Guidance Scale'),
    sampler: params.get('Sampler'),
    model: params.get('Model'),
    size: params.get('Size'),
    strength: params.get('Strength'),
  });
}

/**
 * Draw Things (iOS, macOS): an XMP packet (PNG iTXt `XML:com.adobe.xmp`, JPEG APP1) with `xmp:CreatorTool` =
 * Draw Things and its settings as JSON in `exif:UserComment` (`c` prompt, `uc` negative, `scale`, `size`, `lora`).
 */
export const readDrawthings: GeneratorReader = (texts: TextMap): GeneratorRead | undefined => {
  const xmp = xmpOf(texts);
  if (xmp === undefined || !xmp.includes('Draw Things')) return undefined;
  if (!(xmpProperty(xmp, 'xmp:CreatorTool') ?? '').startsWith('Draw Things')) return undefined;
  const comment = xmpProperty(xmp, 'exif:UserComment');
  const json = parseObject(comment);
  if (json !== undefined) return { source: 'drawthings', ...read(json) };
  const description = xmpProperty(xmp, 'dc:description');
  const fill = description === undefined ? newFill() : fromDescription(description);
  if (comment !== undefined) fill.problems.unshift('exif:UserComment: not a JSON object');
  else if (description === undefined) fill.problems.push('no settings in its XMP');
  return { source: 'drawthings', ...fill };
};
