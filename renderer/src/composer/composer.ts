import type {
  GenerateRequest,
  LoraSpec,
  ProviderCapabilities,
  ProviderInfo,
  QUALITIES,
} from '../../../shared/contract';
import { capabilitiesFor } from './capabilities-for';
import { draftLoras } from './draft-loras';
import { MAX_SEED_TEXT, formatSeed, normalizeSeed, type Seed } from '../../../shared/seed';

export type Quality = (typeof QUALITIES)[number];

export interface ComposerDraft {
  provider: string;
  model: string;
  prompt: string;
  negativePrompt: string;
  width: number;
  height: number;
  count: number;
  seedLocked: boolean;
  /** Canonical (shared/seed.ts): a number up to 2^53-1, its digits beyond, so a 20-digit seed is never rounded. */
  seed: Seed;
  steps: number | null;
  guidance: number | null;
  quality: Quality | null;
  previews: boolean;
  /** '' : the provider's default. ComfyUI's sampler_name and scheduler, A1111's sampler and "Schedule type". */
  sampler: string;
  scheduler: string;
  /** A preset's template: each prompt typed goes where it says {prompt}; '' wraps nothing. */
  template: string;
  templateName: string;
  /** The prompt was recalled (Reuse settings, history, Use as input), not typed: sent as one prompt, lines and braces kept. */
  promptLiteral: boolean;
  /** The seed was filled by Reuse settings for one generation: random again after it runs or after a reload. */
  seedOnce: boolean;
  /** LoRAs in the order they apply; sent only to a provider whose capabilities say it takes them. */
  loras: LoraSpec[];
}

export const DEFAULT_DRAFT: ComposerDraft = {
  provider: 'builtin',
  model: '',
  prompt: '',
  negativePrompt: '',
  width: 512,
  height: 512,
  count: 1,
  seedLocked: false,
  seed: 0,
  steps: null,
  guidance: null,
  quality: null,
  previews: true,
  sampler: '',
  scheduler: '',
  template: '',
  templateName: '',
  promptLiteral: false,
  seedOnce: false,
  loras: [],
};

export type RequestWithoutKey = Omit<GenerateRequest, 'idempotencyKey'>;

/** The request a draft stands for, carrying only what the chosen provider supports. */
export function buildRequest(draft: ComposerDraft, caps: ProviderCapabilities | undefined): RequestWithoutKey {
  const request: RequestWithoutKey = {
    provider: draft.provider,
    prompt: draft.prompt,
    width: draft.width,
    height: draft.height,
    count: draft.count,
  };
  if (draft.model !== '') request.model = draft.model;
  if (caps === undefined) return request;
  if (caps.negativePrompt && draft.negativePrompt.trim() !== '') request.negativePrompt = draft.negativePrompt;
  if (caps.seed && draft.seedLocked) request.seed = draft.seed;
  if (caps.steps !== undefined && draft.steps !== null) request.steps = draft.steps;
  if (caps.guidance !== undefined && draft.guidance !== null) request.guidance = draft.guidance;
  if (caps.qualities !== undefined && draft.quality !== null && caps.qualities.includes(draft.quality)) {
    request.quality = draft.quality;
  }
  if (caps.maxPartialImages > 0) request.partialImages = draft.previews ? Math.min(2, caps.maxPartialImages) : 0;
  // Providers with a sampler choice (A1111, ComfyUI) also take a schedule.
  if (caps.samplers !== undefined && draft.sampler !== '') request.sampler = draft.sampler;
  if (caps.samplers !== undefined && draft.scheduler !== '') request.scheduler = draft.scheduler;
  if (caps.loras === true && draft.loras.length > 0) request.loras = draft.loras;
  return request;
}

/** A stable fingerprint of what would be sent: equal fingerprints are the same request. */
export function fingerprint(request: RequestWithoutKey): string {
  const sorted = Object.keys(request)
    .sort()
    .map((key) => [key, request[key as keyof RequestWithoutKey]]);
  return JSON.stringify(sorted);
}

export interface PendingSubmit {
  fingerprint: string;
  key: string;
}

/**
 * The idempotency key for a submit attempt: the same composed request reuses its key until it succeeds, so a
 * double click, a retry after a dropped connection or a reload mid-submit can never queue it twice.
 */
export function keyForAttempt(
  pending: PendingSubmit | null,
  request: RequestWithoutKey,
  makeKey: () => string,
): PendingSubmit {
  const print = fingerprint(request);
  if (pending !== null && pending.fingerprint === print) return pending;
  return { fingerprint: print, key: makeKey() };
}

/**
 * The draft adjusted to a newly chosen provider: its default model and what that model takes; `before`, what the
 * draft was made for, lets steps and guidance left at its defaults follow the new ones.
 */
export function adaptDraftToProvider(
  draft: ComposerDraft,
  provider: ProviderInfo,
  before?: ProviderCapabilities,
): ComposerDraft {
  const next: ComposerDraft = { ...draft, provider: provider.id };
  if (!provider.models.includes(draft.model)) next.model = provider.defaultModel ?? provider.models[0] ?? '';
  return fitToCapabilities(next, capabilitiesFor(provider, next.model), before);
}

/**
 * The changes choosing `model` makes: what it cannot take is brought in range, and steps or guidance left at the old
 * model's default follow the new one's (FLUX dev's 28 steps become schnell's 4).
 */
export function adaptDraftToModel(draft: ComposerDraft, provider: ProviderInfo, model: string): Partial<ComposerDraft> {
  const next = fitToCapabilities(
    { ...draft, model },
    capabilitiesFor(provider, model),
    capabilitiesFor(provider, draft.model),
  );
  return Object.fromEntries(
    Object.entries(next).filter(([key, value]) => draft[key as keyof ComposerDraft] !== value),
  ) as Partial<ComposerDraft>;
}

/** A range's value for new capabilities: kept when in range and chosen, else the new default. */
function fitRange(
  value: number | null,
  range: ProviderCapabilities['steps'],
  before: ProviderCapabilities['steps'] | undefined,
): number | null {
  if (range === undefined) return null;
  if (value === null || value < range.min || value > range.max || value === before?.default) return range.default;
  return value;
}

/** The draft fitted to `caps`: a size, count, steps, guidance and quality it takes; `before`: the caps it was made for. */
function fitToCapabilities(
  draft: ComposerDraft,
  caps: ProviderCapabilities,
  before?: ProviderCapabilities,
): ComposerDraft {
  const next: ComposerDraft = { ...draft };
  const sizeOk =
    caps.sizes.fixed !== undefined && caps.sizes.fixed.length > 0
      ? caps.sizes.fixed.some(([w, h]) => w === draft.width && h === draft.height)
      : draft.width >= caps.sizes.min &&
        draft.width <= caps.sizes.max &&
        draft.height >= caps.sizes.min &&
        draft.height <= caps.sizes.max &&
        draft.width % caps.sizes.multipleOf === 0 &&
        draft.height % caps.sizes.multipleOf === 0;
  if (!sizeOk) {
    const preset = caps.sizes.fixed?.[0] ?? caps.sizes.presets[0];
    if (preset !== undefined) [next.width, next.height] = preset;
  }
  next.count = Math.max(1, Math.min(draft.count, caps.maxCount));
  next.steps = fitRange(draft.steps, caps.steps, before?.steps);
  next.guidance = fitRange(draft.guidance, caps.guidance, before?.guidance);
  if (caps.qualities === undefined) next.quality = null;
  else if (next.quality === null || !caps.qualities.includes(next.quality)) next.quality = caps.qualities[0] ?? null;
  return next;
}

/** The draft a past job's settings make ("Reuse settings"); prompt history is left alone. */
export function draftFromRequest(
  current: ComposerDraft,
  request: Partial<GenerateRequest> & { provider: string; width: number; height: number; count: number },
  seed: Seed | undefined,
): ComposerDraft {
  return {
    ...current,
    provider: request.provider,
    prompt: request.prompt ?? current.prompt,
    promptLiteral: request.prompt !== undefined || current.promptLiteral,
    model: request.model ?? '',
    negativePrompt: request.negativePrompt ?? '',
    width: request.width,
    height: request.height,
    count: request.count,
    seedLocked: seed !== undefined,
    seedOnce: seed !== undefined,
    seed: seed ?? current.seed,
    steps: request.steps ?? current.steps,
    guidance: request.guidance ?? current.guidance,
    quality: request.quality ?? current.quality,
    previews: (request.partialImages ?? 1) > 0,
    sampler: request.sampler ?? '',
    scheduler: request.scheduler ?? '',
    // A job without LoRAs reused is one without them; an imported file's come in through the request too.
    loras: draftLoras(request.loras),
  };
}

/** The largest seed the composer takes: 2^64-1 (ComfyUI, Fooocus); a provider with a smaller range says so on submit. */
export const MAX_SEED = MAX_SEED_TEXT;

/**
 * What typing in the seed field means: empty is random again, a whole number fixes (locks) that seed, anything else
 * is refused (null: the field keeps what it had). Read from the digits, never through Number(), so none is rounded.
 */
export function seedFromInput(
  text: string,
): (Pick<ComposerDraft, 'seedLocked' | 'seedOnce'> & Partial<Pick<ComposerDraft, 'seed'>>) | null {
  const trimmed = text.trim();
  if (trimmed === '') return { seedLocked: false, seedOnce: false };
  if (!/^\d+$/.test(trimmed)) return null;
  // Leading zeros typed are dropped ("007" is seed 7), as the field always showed.
  const seed = normalizeSeed(trimmed.replace(/^0+(?=\d)/, ''));
  return seed === null ? null : { seed, seedLocked: true, seedOnce: false };
}

/** The seed field's text: empty while random (its placeholder says so), every digit once fixed. */
export function seedFieldText(draft: Pick<ComposerDraft, 'seed' | 'seedLocked'>): string {
  return draft.seedLocked ? formatSeed(draft.seed) : '';
}

/** The draft after a generation ran: a seed Reuse settings filled for that one run goes back to random. */
export function afterGenerate(draft: ComposerDraft): ComposerDraft {
  return draft.seedOnce ? { ...draft, seedLocked: false, seedOnce: false } : draft;
}

/** A draft read back after a reload: a reused seed is not kept fixed (only one the person fixed is). */
export function restoredDraft(draft: ComposerDraft): ComposerDraft {
  // Saved by an older build or edited by hand: LoRAs that are not a list of named LoRAs are none.
  return afterGenerate({ ...draft, loras: draftLoras(draft.loras) });
}
