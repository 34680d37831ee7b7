/**
 * One tool's settings onto another's: samplers, CFG, steps, seed range, sizes, negative prompt, the model (by hash
 * where known). Whatever has no equivalent on the target is named in a warning, never silently dropped.
 */
import type { GenerateRequest, ProviderCapabilities } from '../contract/index.js';
import type { ProviderKind } from '../contract/iterate.js';
import { formatSeed, seedToBigInt, type Seed } from '../seed.js';
import { a1111ToComfy, comfyToA1111 } from './samplers.js';

/** The settings a request or an imported file carries, plus the model hash A1111 writes ("Model hash: 6ce0161689"). */
export type PortableSettings = Partial<Omit<GenerateRequest, 'provider' | 'idempotencyKey'>> & {
  width: number;
  height: number;
  modelHash?: string;
};

export type TargetCapabilities = Pick<
  ProviderCapabilities,
  | 'sizes'
  | 'maxCount'
  | 'steps'
  | 'guidance'
  | 'seed'
  | 'negativePrompt'
  | 'qualities'
  | 'backgrounds'
  | 'outputFormats'
>;

export interface MappingTarget {
  /** The target's listed models, matched by hash or name. */
  models?: readonly string[];
  /** Absent: the kind's usual limits. */
  capabilities?: TargetCapabilities;
}

export type MappedSettings = Omit<PortableSettings, 'modelHash'>;

export const KIND_LABEL: Record<ProviderKind, string> = {
  builtin: 'The built-in generator',
  openai: 'OpenAI',
  gemini: 'Google Gemini',
  bfl: 'Black Forest Labs FLUX',
  fal: 'fal.ai',
  replicate: 'Replicate',
  stability: 'Stability AI',
  a1111: 'A1111',
  comfyui: 'ComfyUI',
  runpod: 'RunPod (ComfyUI)',
};

const GPT_SIZES: [number, number][] = [
  [1024, 1024],
  [1536, 1024],
  [1024, 1536],
];

/** Each kind's usual limits, when the caller has no provider's own capabilities at hand. */
export const KIND_CAPABILITIES: Record<ProviderKind, TargetCapabilities> = {
  builtin: {
    sizes: { min: 64, max: 2048, multipleOf: 8, presets: [] },
    maxCount: 10,
    steps: { min: 1, max: 150, default: 20 },
    guidance: { min: 0, max: 30, default: 7 },
    seed: true,
    negativePrompt: true,
    outputFormats: ['png'],
  },
  a1111: {
    sizes: { min: 64, max: 2048, multipleOf: 8, presets: [] },
    maxCount: 10,
    steps: { min: 1, max: 150, default: 20 },
    guidance: { min: 1, max: 30, default: 7 },
    seed: true,
    negativePrompt: true,
    outputFormats: ['png'],
  },
  comfyui: {
    sizes: { min: 64, max: 4096, multipleOf: 8, presets: [] },
    maxCount: 10,
    steps: { min: 1, max: 150, default: 20 },
    guidance: { min: 0, max: 30, default: 7 },
    seed: true,
    negativePrompt: true,
    outputFormats: ['png'],
  },
  openai: {
    sizes: { min: 1024, max: 1536, multipleOf: 16, fixed: GPT_SIZES, presets: GPT_SIZES },
    maxCount: 10,
    seed: false,
    negativePrompt: false,
    qualities: ['auto', 'low', 'medium', 'high'],
    backgrounds: ['auto', 'transparent', 'opaque'],
    outputFormats: ['png', 'jpeg', 'webp'],
  },
  // electron/providers/gemini/models.ts: one image per request, no seed, aspect ratios rather than exact sizes.
  gemini: {
    sizes: { min: 256, max: 1536, multipleOf: 8, presets: [] },
    maxCount: 1,
    seed: false,
    negativePrompt: false,
    outputFormats: ['png'],
  },
  // electron/providers/bfl/models.ts: one image per request, sides multiples of 16 up to 4 MP, a seed.
  bfl: {
    sizes: { min: 64, max: 2048, multipleOf: 16, presets: [] },
    maxCount: 1,
    seed: true,
    negativePrompt: false,
    outputFormats: ['png'],
  },
  // electron/providers/fal/models.ts: its default, FLUX dev (other presets say their own).
  fal: {
    sizes: { min: 256, max: 2048, multipleOf: 16, presets: [] },
    maxCount: 4,
    steps: { min: 1, max: 50, default: 28 },
    guidance: { min: 1, max: 20, default: 3.5 },
    seed: true,
    negativePrompt: false,
    outputFormats: ['png'],
  },
  // electron/providers/replicate/models.ts: its default, FLUX schnell.
  replicate: {
    sizes: { min: 64, max: 2048, multipleOf: 8, presets: [] },
    maxCount: 4,
    steps: { min: 1, max: 4, default: 4 },
    seed: true,
    negativePrompt: false,
    outputFormats: ['png'],
  },
  // electron/providers/stability/models.ts: one image per request, aspect ratios from width and height.
  stability: {
    sizes: { min: 64, max: 4096, multipleOf: 8, presets: [] },
    maxCount: 1,
    seed: true,
    negativePrompt: true,
    outputFormats: ['png'],
  },
  // A ComfyUI graph on a rented GPU (electron/providers/runpod/capabilities.ts).
  runpod: {
    sizes: { min: 64, max: 4096, multipleOf: 8, presets: [] },
    maxCount: 4,
    steps: { min: 1, max: 150, default: 20 },
    guidance: { min: 0, max: 30, default: 7 },
    seed: true,
    negativePrompt: true,
    outputFormats: ['png'],
  },
};

/** A1111 seeds its generator with 32 bits; the others take 64. */
const SEED_MAX: Record<ProviderKind, bigint> = {
  builtin: 2n ** 64n - 1n,
  openai: 0n,
  gemini: 0n,
  bfl: 2n ** 32n - 1n,
  fal: 2n ** 32n - 1n,
  replicate: 2n ** 32n - 1n,
  stability: 2n ** 32n - 2n,
  a1111: 2n ** 32n - 1n,
  comfyui: 2n ** 64n - 1n,
  runpod: 2n ** 64n - 1n,
};

const MODEL_EXTENSIONS = /\.(safetensors|ckpt|pt|pth|bin|gguf|sft)$/i;

/** "[6ce0161689]" in an A1111 model title. */
export function bracketHash(name: string): string | undefined {
  return /\[([0-9a-f]{8,64})\]\s*$/i.exec(name)?.[1]?.toLowerCase();
}

/** A model's name without folder, extension or hash, lower-cased: "SDXL/sd_xl_base_1.0.safetensors [31e35c80fc]" → "sd_xl_base_1.0". */
export function modelStem(name: string): string {
  const bare = name.replace(/\s*\[[0-9a-f]{8,64}\]\s*$/i, '');
  const file = bare.split(/[\\/]/).pop() ?? bare;
  return file.replace(MODEL_EXTENSIONS, '').trim().toLowerCase();
}

function sameHash(a: string, b: string): boolean {
  // A1111's old hash has 8 digits, its newer one 10 (the head of the SHA-256): one may be the head of the other.
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x.length >= 8 && y.length >= 8 && (x.startsWith(y) || y.startsWith(x));
}

/** The target's model for a name and hash: by hash where its names carry one, else by the file's stem. */
export function matchModel(
  model: string | undefined,
  hash: string | undefined,
  models: readonly string[],
): string | undefined {
  const wanted = hash ?? (model === undefined ? undefined : bracketHash(model));
  if (wanted !== undefined) {
    const byHash = models.find((m) => {
      const own = bracketHash(m);
      return own !== undefined && sameHash(own, wanted);
    });
    if (byHash !== undefined) return byHash;
  }
  if (model === undefined) return undefined;
  const stem = modelStem(model);
  return models.find((m) => m === model) ?? models.find((m) => modelStem(m) === stem);
}

function snap(value: number, caps: TargetCapabilities['sizes']): number {
  const rounded = Math.round(value / caps.multipleOf) * caps.multipleOf;
  return Math.min(
    Math.floor(caps.max / caps.multipleOf) * caps.multipleOf,
    Math.max(Math.ceil(caps.min / caps.multipleOf) * caps.multipleOf, rounded),
  );
}

/** The fixed size closest in shape, then in area. */
function nearestFixed(width: number, height: number, fixed: readonly [number, number][]): [number, number] {
  const shape = Math.log(width / height);
  let best = fixed[0]!;
  let bestScore = Infinity;
  for (const size of fixed) {
    const score =
      Math.abs(Math.log(size[0] / size[1]) - shape) * 10 + Math.abs(Math.log((size[0] * size[1]) / (width * height)));
    if (score < bestScore) [best, bestScore] = [size, score];
  }
  return best;
}

function short(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** `settings` made on a `fromKind` provider, as a `toKind` provider takes them, and what could not come along. */
export function mapSettings(
  settings: PortableSettings,
  fromKind: ProviderKind,
  toKind: ProviderKind,
  target: MappingTarget = {},
): { request: MappedSettings; warnings: string[] } {
  const caps = target.capabilities ?? KIND_CAPABILITIES[toKind];
  const to = KIND_LABEL[toKind];
  const warnings: string[] = [];
  const { modelHash, sampler, scheduler, ...rest } = settings;
  const request: MappedSettings = { ...rest };

  // Samplers: the names differ between A1111 and ComfyUI; the others have no choice at all.
  delete request.sampler;
  delete request.scheduler;
  if (fromKind === toKind) {
    if (sampler !== undefined) request.sampler = sampler;
    if (scheduler !== undefined) request.scheduler = scheduler;
  } else if (toKind === 'comfyui' || toKind === 'a1111') {
    const given = [sampler, scheduler].filter((s) => s !== undefined).join(' with ');
    const unknown =
      given === '' ? [] : [`${to} has no sampler known to match "${given}": its default sampler is used.`];
    const mapped =
      fromKind === 'a1111'
        ? a1111ToComfy(sampler, scheduler)
        : fromKind === 'comfyui'
          ? comfyToA1111(sampler, scheduler)
          : { warnings: unknown };
    if (mapped.sampler !== undefined) request.sampler = mapped.sampler;
    if (mapped.scheduler !== undefined) request.scheduler = mapped.scheduler;
    warnings.push(...mapped.warnings);
  } else if (sampler !== undefined || scheduler !== undefined) {
    const what = [sampler, scheduler].filter((s) => s !== undefined).join(' with ');
    warnings.push(`${to} has no sampler choice: ${what} is not used.`);
  }

  // The model: the target's own listed name, found by hash or file name.
  delete request.model;
  if (settings.model !== undefined || modelHash !== undefined) {
    const models = target.models ?? [];
    const found = matchModel(settings.model, modelHash, models);
    if (found !== undefined) request.model = found;
    else if (fromKind === toKind && settings.model !== undefined && target.models === undefined)
      request.model = settings.model;
    else {
      const named = settings.model ?? `hash ${modelHash}`;
      const hashNote = modelHash !== undefined && settings.model !== undefined ? ` (hash ${modelHash})` : '';
      warnings.push(`${to} lists no model matching "${named}"${hashNote}: its default model is used.`);
    }
  }

  if (settings.negativePrompt !== undefined && settings.negativePrompt.trim() !== '' && !caps.negativePrompt) {
    delete request.negativePrompt;
    warnings.push(`${to} has no negative prompt: "${short(settings.negativePrompt)}" is left out.`);
  }

  if (settings.seed !== undefined) {
    const seed: Seed = settings.seed;
    if (!caps.seed) {
      delete request.seed;
      warnings.push(`${to} takes no seed: seed ${formatSeed(seed)} is left out, so the image will differ.`);
    } else if (seedToBigInt(seed) > SEED_MAX[toKind]) {
      delete request.seed;
      warnings.push(
        `${to} seeds go up to ${SEED_MAX[toKind]}: seed ${formatSeed(seed)} is larger, so a random seed is used.`,
      );
    }
  }

  for (const [field, label, range] of [
    ['steps', 'steps', caps.steps],
    ['guidance', toKind === 'a1111' ? 'a CFG scale' : 'guidance (CFG)', caps.guidance],
  ] as const) {
    const value = settings[field];
    if (value === undefined) continue;
    if (range === undefined) {
      delete request[field];
      warnings.push(`${to} has no ${label.replace(/^an? /, '')} setting: ${value} is not used.`);
    } else if (value < range.min || value > range.max) {
      const clamped = Math.min(range.max, Math.max(range.min, value));
      request[field] = clamped;
      warnings.push(`${to} takes ${label} from ${range.min} to ${range.max}: ${value} becomes ${clamped}.`);
    }
  }

  const fixed = caps.sizes.fixed !== undefined && caps.sizes.fixed.length > 0 ? caps.sizes.fixed : null;
  const [width, height] =
    fixed !== null
      ? nearestFixed(settings.width, settings.height, fixed)
      : [snap(settings.width, caps.sizes), snap(settings.height, caps.sizes)];
  if (width !== settings.width || height !== settings.height) {
    const why =
      fixed !== null
        ? `makes only ${fixed.map(([w, h]) => `${w}×${h}`).join(', ')}`
        : `needs sizes from ${caps.sizes.min} to ${caps.sizes.max} in steps of ${caps.sizes.multipleOf}`;
    warnings.push(`${to} ${why}: ${settings.width}×${settings.height} becomes ${width}×${height}.`);
  }
  request.width = width;
  request.height = height;

  if (settings.count !== undefined && settings.count > caps.maxCount) {
    request.count = caps.maxCount;
    warnings.push(`${to} makes at most ${caps.maxCount} at once: ${settings.count} becomes ${caps.maxCount}.`);
  }

  for (const [field, label, allowed] of [
    ['quality', 'quality', caps.qualities],
    ['background', 'background', caps.backgrounds],
    ['outputFormat', 'output format', caps.outputFormats],
  ] as const) {
    const value = settings[field];
    if (value === undefined) continue;
    if (allowed === undefined || !(allowed as readonly string[]).includes(value)) {
      delete request[field];
      warnings.push(`${to} has no ${label} "${value}": it is left out.`);
    }
  }
  return { request, warnings };
}
