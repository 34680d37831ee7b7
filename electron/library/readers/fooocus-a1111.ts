import { parseParameters } from '../../media/png/a1111-parameters.js';
import { asCount, asNumber, asSeed, asText, lora, newFill, put, putLoras, type Fill } from './fields.js';

/** "name: value, name2: value2", as Fooocus writes `Lora weights` and `Lora hashes`. */
function pairs(text: string | undefined): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of (text ?? '').split(',')) {
    const at = part.lastIndexOf(':');
    if (at > 0) found.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return found;
}

/** Fooocus `parameters` in its A1111 scheme (`fooocus_scheme` = a1111); the seed read from its digits, exactly. */
export function readFooocusA1111(text: string): Fill {
  const fill = newFill();
  const parsed = parseParameters(text);
  const params = new Map(Object.entries(parsed.params));
  put(fill, 'prompt', parsed.prompt, asText, 'prompt');
  put(fill, 'negativePrompt', parsed.negativePrompt, asText, 'Negative prompt');
  put(fill, 'seed', params.get('Seed'), asSeed, 'Seed');
  put(fill, 'steps', params.get('Steps'), asCount, 'Steps');
  put(fill, 'guidance', params.get('CFG scale'), asNumber, 'CFG scale');
  put(fill, 'sampler', params.get('Sampler'), asText, 'Sampler');
  put(fill, 'scheduler', params.get('Scheduler'), asText, 'Scheduler');
  put(fill, 'model', params.get('Model'), asText, 'Model');
  put(fill, 'modelHash', params.get('Model hash'), asText, 'Model hash');
  put(fill, 'width', params.get('Size-1'), asCount, 'Size');
  put(fill, 'height', params.get('Size-2'), asCount, 'Size');
  const hashes = pairs(params.get('Lora hashes'));
  putLoras(
    fill,
    [...pairs(params.get('Lora weights'))].map(([name, weight]) => lora(name, weight, hashes.get(name))),
  );
  return fill;
}
