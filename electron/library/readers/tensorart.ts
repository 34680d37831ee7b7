import { readComfyui } from './comfyui.js';
import { asCount, asNumber, asSeed, asText, newFill, put, type Fill } from './fields.js';
import { isObject, parseObject, type JsonObject } from './json.js';
import type { GeneratorRead, GeneratorReader, ReaderOptions, TextMap } from './types.js';
import { trimTrailingNuls } from './user-comment.js';

/** `generation_data`: what the person set on tensor.art; a seed of -1 means "random", so it says nothing. */
function fromGenerationData(data: JsonObject): Fill {
  const fill = newFill();
  put(fill, 'prompt', data['prompt'], asText, 'prompt');
  put(fill, 'negativePrompt', data['negativePrompt'], asText, 'negativePrompt');
  if (String(data['seed']).trim() !== '-1') put(fill, 'seed', data['seed'], asSeed, 'seed');
  put(fill, 'steps', data['steps'], asCount, 'steps');
  put(fill, 'guidance', data['cfgScale'], asNumber, 'cfgScale');
  put(fill, 'sampler', data['ksamplerName'] ?? data['samplerName'], asText, 'ksamplerName');
  put(fill, 'scheduler', data['schedule'], asText, 'schedule');
  put(fill, 'width', data['width'], asCount, 'width');
  put(fill, 'height', data['height'], asCount, 'height');
  const base = data['baseModel'];
  if (isObject(base)) {
    put(fill, 'model', base['modelFileName'] ?? base['label'], asText, 'baseModel.modelFileName');
    put(fill, 'modelHash', base['hash'], asText, 'baseModel.hash');
  }
  return fill;
}

/**
 * Tensor.Art (PNG): `generation_data` (its own JSON, ending in a NUL) beside the ComfyUI `prompt` graph it ran.
 * Its own fields win; the graph fills what it leaves out (the seed it drew for -1, a model file it does not name).
 */
export const readTensorart: GeneratorReader = (texts: TextMap, options?: ReaderOptions): GeneratorRead | undefined => {
  const text = texts.get('generation_data');
  if (text === undefined) return undefined;
  const data = parseObject(trimTrailingNuls(text));
  const mine = data === undefined ? newFill() : fromGenerationData(data);
  const graph = readComfyui(texts, options);
  const problems = data === undefined ? ['generation_data: not a JSON object'] : [];
  return {
    ...graph,
    source: 'tensorart',
    settings: { ...(graph?.settings ?? {}), ...mine.settings },
    problems: [...problems, ...mine.problems, ...(graph?.problems ?? [])],
  };
};
