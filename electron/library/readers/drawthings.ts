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

/** `lora`: `[{file, weight}]`. */
function loras(value: unknown) {
  return Array.isArray(value)
    ? value.map((entry) => (isObject(entry) ? lora(entry['file'], entry['weight']) : undefined))
    : [];
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
  putLoras(fill, loras(json['lora']));
  return fill;
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
  if (json === undefined) {
    const problems = comment === undefined ? ['no settings in its XMP'] : ['exif:UserComment: not a JSON object'];
    return { source: 'drawthings', settings: {}, problems };
  }
  return { source: 'drawthings', ...read(json) };
};
