import { asCount, asNumber, asSeed, asText, newFill, put, type Fill } from './fields.js';
import { parseObject, type JsonObject } from './json.js';
import type { GeneratorRead, GeneratorReader, TextMap } from './types.js';

/** "1024 x 1024". Trimmed first, so the pattern has one `\s*` on each side of the x only. */
function resolution(value: unknown): [number, number] | undefined {
  const match = typeof value === 'string' ? /^(\d+)\s*[x×]\s*(\d+)$/.exec(value.trim()) : null;
  const width = asCount(match?.[1]);
  const height = asCount(match?.[2]);
  return width !== undefined && height !== undefined ? [width, height] : undefined;
}

function read(meta: JsonObject): Fill {
  const fill = newFill();
  put(fill, 'prompt', meta['prompt'], asText, 'prompt');
  put(fill, 'negativePrompt', meta['negative_prompt'], asText, 'negative_prompt');
  put(fill, 'seed', meta['seed'], asSeed, 'seed');
  put(fill, 'steps', meta['num_inference_steps'], asCount, 'num_inference_steps');
  put(fill, 'guidance', meta['guidance_scale'], asNumber, 'guidance_scale');
  put(fill, 'sampler', meta['sampler'], asText, 'sampler');
  put(fill, 'model', meta['Model'] ?? meta['model'], asText, 'Model');
  put(fill, 'modelHash', meta['Model hash'], asText, 'Model hash');
  const size = resolution(meta['resolution']);
  if (size !== undefined) [fill.settings.width, fill.settings.height] = size;
  else {
    put(fill, 'width', meta['width'], asCount, 'width');
    put(fill, 'height', meta['height'], asCount, 'height');
  }
  put(fill, 'denoise', meta['strength'], asNumber, 'strength');
  return fill;
}

/**
 * A Hugging Face Space (Gradio and diffusers, e.g. the Animagine and WAI Spaces): PNG `parameters` = JSON of the
 * pipeline's own argument names (`prompt`, `negative_prompt`, `num_inference_steps`, `guidance_scale`, `seed`).
 * `num_inference_steps` is what tells it from the other JSON writers (Fooocus says `steps`).
 */
export const readHuggingface: GeneratorReader = (texts: TextMap): GeneratorRead | undefined => {
  const text = texts.get('parameters');
  if (text === undefined || !text.includes('"num_inference_steps"')) return undefined;
  const meta = parseObject(text);
  if (meta === undefined || meta['num_inference_steps'] === undefined || meta['prompt'] === undefined) return undefined;
  return { source: 'huggingface', ...read(meta) };
};
