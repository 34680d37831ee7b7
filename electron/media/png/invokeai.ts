/** InvokeAI chunks (docs/provider-protocols.md §4.3): `invokeai_metadata` (v3+), legacy `sd-metadata` and `Dream`. */
import { splitSquareBrackets } from '../square-brackets.js';

export interface InvokeMetadata {
  format: 'invokeai_metadata' | 'sd-metadata' | 'Dream';
  raw: unknown;
  prompt?: string;
  negativePrompt?: string;
  seed?: number;
  steps?: number;
  cfgScale?: number;
  sampler?: string;
  width?: number;
  height?: number;
  model?: string;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function assignDefined<T extends object>(target: T, values: { [K in keyof T]?: T[K] | undefined }): T {
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) (target as Obj)[key] = value;
  }
  return target;
}

function parseObject(text: string): Obj | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObj(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function fromV3(meta: Obj): InvokeMetadata {
  const model = isObj(meta['model']) ? str(meta['model']['name']) : str(meta['model']);
  return assignDefined<InvokeMetadata>(
    { format: 'invokeai_metadata', raw: meta },
    {
      prompt: str(meta['positive_prompt']),
      negativePrompt: str(meta['negative_prompt']),
      seed: num(meta['seed']),
      steps: num(meta['steps']),
      cfgScale: num(meta['cfg_scale']),
      sampler: str(meta['scheduler']),
      width: num(meta['width']),
      height: num(meta['height']),
      model,
    },
  );
}

/** Legacy prompts carry the negative inside square brackets: "a cat [blurry, dog]". */
function splitLegacyPrompt(text: string): { prompt: string; negativePrompt?: string } {
  const { inside, outside } = splitSquareBrackets(text);
  const negatives = inside.map((m) => m.trim()).filter((s) => s !== '');
  const prompt = outside.join('').replace(/\s+/g, ' ').trim();
  return negatives.length > 0 ? { prompt, negativePrompt: negatives.join(', ') } : { prompt };
}

function fromSdMetadata(meta: Obj): InvokeMetadata {
  const image = isObj(meta['image']) ? meta['image'] : {};
  const rawPrompt = image['prompt'];
  const promptText = Array.isArray(rawPrompt)
    ? rawPrompt.map((p) => (isObj(p) ? (str(p['prompt']) ?? '') : String(p))).join(' ')
    : str(rawPrompt);
  const split = promptText === undefined ? {} : splitLegacyPrompt(promptText);
  return assignDefined<InvokeMetadata>(
    { format: 'sd-metadata', raw: meta },
    {
      ...split,
      seed: num(image['seed']),
      steps: num(image['steps']),
      cfgScale: num(image['cfg_scale']),
      sampler: str(image['sampler']),
      width: num(image['width']),
      height: num(image['height']),
      model: str(meta['model_weights']) ?? str(meta['model']),
    },
  );
}

/** `"a cat [blurry]" -s 50 -S 12345 -W 512 -H 512 -C 7.5 -A k_lms` */
function fromDream(text: string): InvokeMetadata {
  const quoted = /^\s*"((?:\\.|[^"\\])*)"(.*)$/s.exec(text);
  const promptPart = quoted ? quoted[1]!.replace(/\\(.)/g, '$1') : (/^(.*?)(?:\s-[a-zA-Z]\s|$)/s.exec(text)?.[1] ?? '');
  const rest = quoted ? quoted[2]! : text.slice(promptPart.length);
  const flag = (letter: string): string | undefined => new RegExp(`(?:^|\\s)-${letter}\\s+(\\S+)`).exec(rest)?.[1];
  const n = (v: string | undefined): number | undefined => (v === undefined ? undefined : num(Number(v)));
  return assignDefined<InvokeMetadata>(
    { format: 'Dream', raw: text },
    {
      ...splitLegacyPrompt(promptPart),
      steps: n(flag('s')),
      seed: n(flag('S')),
      width: n(flag('W')),
      height: n(flag('H')),
      cfgScale: n(flag('C')),
      sampler: flag('A'),
    },
  );
}

/** Reads whichever InvokeAI chunk is present, newest format first. */
export function readInvokeMetadata(texts: ReadonlyMap<string, string>): InvokeMetadata | undefined {
  for (const key of ['invokeai_metadata', 'invokeai']) {
    const text = texts.get(key);
    const meta = text === undefined ? undefined : parseObject(text);
    if (meta !== undefined) return fromV3(meta);
  }
  const legacy = texts.get('sd-metadata');
  const legacyMeta = legacy === undefined ? undefined : parseObject(legacy);
  if (legacyMeta !== undefined) return fromSdMetadata(legacyMeta);
  const dream = texts.get('Dream');
  if (dream !== undefined) return fromDream(dream);
  return undefined;
}
