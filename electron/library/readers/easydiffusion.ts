import { compact, numberField, parseJsonObject, textField } from './fields.js';
import { seedString, type GeneratorRead, type LoraRef, type TextMap } from './types.js';

/** EasyDiffusion's LoRAs: `use_lora_model` and `lora_alpha`, each one value or a comma-separated list. */
function loras(names: string | undefined, alphas: string | undefined): LoraRef[] | undefined {
  if (names === undefined || names.trim() === '' || names === 'None') return undefined;
  const weights = (alphas ?? '').split(',').map((s) => Number(s.trim()));
  const out = names
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '')
    .map((name, i): LoraRef =>
      Number.isFinite(weights[i]) && alphas !== undefined ? { name, weight: weights[i]! } : { name },
    );
  return out.length > 0 ? out : undefined;
}

function isEasydiffusion(texts: TextMap): boolean {
  return texts.has('num_inference_steps') || texts.has('use_stable_diffusion_model');
}

/** Older Easy Diffusion versions wrote the same settings under display names ("Stable Diffusion model", "Steps"). */
const DISPLAY_NAMES: ReadonlyArray<[string, string]> = [
  ['Prompt', 'prompt'],
  ['Negative Prompt', 'negative_prompt'],
  ['Seed', 'seed'],
  ['Stable Diffusion model', 'use_stable_diffusion_model'],
  ['Sampler', 'sampler_name'],
  ['Width', 'width'],
  ['Height', 'height'],
  ['Steps', 'num_inference_steps'],
  ['Guidance Scale', 'guidance_scale'],
  ['LoRA model', 'use_lora_model'],
  ['LoRA Strength', 'lora_alpha'],
];

/** The display-named keys under their current names, when the file has "Stable Diffusion model" and a prompt. */
function fromDisplayNames(texts: TextMap): TextMap | undefined {
  if (!texts.has('Stable Diffusion model') || !texts.has('Prompt')) return undefined;
  const map = new Map<string, string>();
  for (const [display, key] of DISPLAY_NAMES) {
    const value = texts.get(display);
    if (value !== undefined) map.set(key, value);
  }
  return map;
}

/** JPEG and WebP: the same keys as one JSON object in the EXIF UserComment. */
function fromUserComment(texts: TextMap): TextMap | undefined {
  const json = parseJsonObject(texts.get('exif:UserComment'));
  if (json === undefined) return undefined;
  const map = new Map<string, string>();
  for (const [key, value] of Object.entries(json)) {
    if (typeof value === 'string' || typeof value === 'number') map.set(key, String(value));
  }
  return isEasydiffusion(map) ? map : fromDisplayNames(map);
}

/** EasyDiffusion: one PNG text per setting (`prompt`, `num_inference_steps`, `use_stable_diffusion_model`, …). */
export function readEasydiffusion(found: TextMap): GeneratorRead | undefined {
  const texts = isEasydiffusion(found) ? found : (fromDisplayNames(found) ?? fromUserComment(found));
  if (texts === undefined) return undefined;
  const problems: string[] = [];
  const seedText = texts.get('seed');
  const seed = seedText === undefined ? undefined : seedString(seedText);
  if (seedText !== undefined && seed === undefined)
    problems.push(`Seed ${JSON.stringify(seedText)} is not a whole number.`);
  return {
    source: 'easydiffusion',
    settings: compact({
      prompt: textField(texts.get('prompt')),
      negativePrompt: textField(texts.get('negative_prompt')),
      seed,
      steps: numberField(texts.get('num_inference_steps'), 'Steps', problems),
      guidance: numberField(texts.get('guidance_scale'), 'Guidance scale', problems),
      sampler: textField(texts.get('sampler_name')),
      model: textField(texts.get('use_stable_diffusion_model')),
      width: numberField(texts.get('width'), 'Width', problems),
      height: numberField(texts.get('height'), 'Height', problems),
      loras: loras(texts.get('use_lora_model'), texts.get('lora_alpha')),
    }),
    problems,
  };
}
