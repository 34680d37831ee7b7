import { readComfyui } from './comfyui.js';
import { asCount, asNumber, asSeed, asText, newFill, put, type Fill } from './fields.js';
import { parseObject, type JsonObject } from './json.js';
import type { GeneratorRead, GeneratorReader, ReaderOptions, TextMap } from './types.js';

/** `parameters-json`: Stability Matrix's own record of what the person asked for. */
function fromRecord(json: JsonObject): Fill {
  const fill = newFill();
  put(fill, 'prompt', json['PositivePrompt'], asText, 'PositivePrompt');
  put(fill, 'negativePrompt', json['NegativePrompt'], asText, 'NegativePrompt');
  put(fill, 'seed', json['Seed'], asSeed, 'Seed');
  put(fill, 'steps', json['Steps'], asCount, 'Steps');
  put(fill, 'guidance', json['CfgScale'], asNumber, 'CfgScale');
  put(fill, 'sampler', json['Sampler'], asText, 'Sampler');
  put(fill, 'model', json['ModelName'], asText, 'ModelName');
  put(fill, 'modelHash', json['ModelHash'], asText, 'ModelHash');
  put(fill, 'width', json['Width'], asCount, 'Width');
  put(fill, 'height', json['Height'], asCount, 'Height');
  return fill;
}

/**
 * Stability Matrix's Inference tab (PNG): `parameters-json` and `smproj` beside ComfyUI's `prompt` graph it ran.
 * The prompts and model are the record's (the graph's prompt has Stability Matrix's `#` comments already removed);
 * sampler, scheduler, seed, steps and size are the graph's first pass, as ComfyUI ran them.
 */
export const readStabilitymatrix: GeneratorReader = (
  texts: TextMap,
  options?: ReaderOptions,
): GeneratorRead | undefined => {
  const recordText = texts.get('parameters-json');
  if (recordText === undefined && !texts.has('smproj')) return undefined;
  const record = parseObject(recordText);
  const problems = recordText !== undefined && record === undefined ? ['parameters-json: not a JSON object'] : [];
  const mine = record === undefined ? newFill() : fromRecord(record);
  const graph = readComfyui(texts, options);
  const { prompt, negativePrompt, model, modelHash } = mine.settings;
  const settings = { ...mine.settings, ...(graph?.settings ?? {}) };
  for (const [key, value] of Object.entries({ prompt, negativePrompt, model, modelHash })) {
    if (value !== undefined) Object.assign(settings, { [key]: value });
  }
  const read: GeneratorRead = {
    ...graph,
    source: 'stabilitymatrix',
    settings,
    problems: [...problems, ...mine.problems, ...(graph?.problems ?? [])],
  };
  return read;
};
