import { asCount, asNumber, asSeed, asText, lora, newFill, put, putLoras, type Fill } from './fields.js';
import { isObject, parseJson, type JsonObject } from './json.js';
import type { GeneratorRead, GeneratorReader, TextMap } from './types.js';

/** The hash SwarmUI lists for the main model in `sui_models` (`{name, param: 'model', hash}`). */
function modelHash(models: unknown): unknown {
  if (!Array.isArray(models)) return undefined;
  return models.find((entry) => isObject(entry) && entry['param'] === 'model')?.['hash'];
}

/** `loras` and `loraweights` are parallel lists. */
function loras(params: JsonObject) {
  const names: unknown[] = Array.isArray(params['loras']) ? params['loras'] : [];
  const weights: unknown[] = Array.isArray(params['loraweights']) ? params['loraweights'] : [];
  return names.map((name, i) => lora(name, weights[i]));
}

function readParams(meta: JsonObject, params: JsonObject): Fill {
  const fill = newFill();
  put(fill, 'prompt', params['prompt'], asText, 'prompt');
  put(fill, 'negativePrompt', params['negativeprompt'], asText, 'negativeprompt');
  put(fill, 'seed', params['seed'], asSeed, 'seed');
  put(fill, 'steps', params['steps'], asCount, 'steps');
  put(fill, 'guidance', params['cfgscale'], asNumber, 'cfgscale');
  put(fill, 'sampler', params['sampler'], asText, 'sampler');
  put(fill, 'scheduler', params['scheduler'], asText, 'scheduler');
  put(fill, 'model', params['model'], asText, 'model');
  put(fill, 'modelHash', modelHash(meta['sui_models']), asText, 'sui_models hash');
  put(fill, 'width', params['width'], asCount, 'width');
  put(fill, 'height', params['height'], asCount, 'height');
  // Only meaningful with an init image: SwarmUI's name for img2img strength.
  if (params['initimage'] !== undefined || params['initimagecreativity'] !== undefined) {
    put(fill, 'denoise', params['initimagecreativity'], asNumber, 'initimagecreativity');
  }
  putLoras(fill, loras(params));
  return fill;
}

/** SwarmUI: `parameters` (PNG) or EXIF UserComment (JPEG/WebP), JSON with `sui_image_params`. */
export const readSwarmui: GeneratorReader = (texts: TextMap): GeneratorRead | undefined => {
  for (const key of ['parameters', 'exif:UserComment']) {
    const text = texts.get(key);
    if (text === undefined || !text.trimStart().startsWith('{')) continue;
    const parsed = parseJson(text);
    const meta = parsed.ok && isObject(parsed.value) ? parsed.value : undefined;
    if (meta !== undefined && isObject(meta['sui_image_params'])) {
      return { source: 'swarmui', ...readParams(meta, meta['sui_image_params']) };
    }
    if (meta === undefined && text.includes('"sui_image_params"')) {
      return { source: 'swarmui', settings: {}, problems: [`${key}: not valid JSON`] };
    }
  }
  return undefined;
};
