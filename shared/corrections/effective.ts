/**
 * Effective settings: what a file says, with a person's corrections on top. The one place both are combined, so
 * Details, Reuse, Retry, export and the search columns (electron/db/annotated-search.ts) agree on what wins.
 */
import type { Corrections, ImportedMetadata, JobDetail, StoredRequest } from '../contract/index.js';
import type { Seed } from '../seed.js';

/** The settings a person reads in Details and may correct. */
export interface ImageSettings {
  prompt: string;
  negativePrompt?: string;
  model?: string;
  seed?: Seed;
  steps?: number;
  guidance?: number;
  sampler?: string;
  width: number;
  height: number;
}

/** Where a job's own settings are: its request, and for an imported file the names only its metadata keeps. */
export interface SettingsSource {
  request: StoredRequest;
  metadata?: Pick<ImportedMetadata, 'model' | 'sampler'> | null | undefined;
  /** The seed its result or image carries when the request has none. */
  seed?: Seed | undefined;
}

const present = <T>(value: T | undefined): value is T => value !== undefined;

/** What the file (or Atelier's own request) says, before any correction. */
export function fileSettings({ request, metadata, seed }: SettingsSource): ImageSettings {
  const out: ImageSettings = { prompt: request.prompt, width: request.width, height: request.height };
  if (request.negativePrompt !== undefined && request.negativePrompt.length > 0)
    out.negativePrompt = request.negativePrompt;
  const model = metadata?.model ?? request.model;
  if (present(model)) out.model = model;
  const fileSeed = request.seed ?? seed;
  if (present(fileSeed)) out.seed = fileSeed;
  if (present(request.steps)) out.steps = request.steps;
  if (present(request.guidance)) out.guidance = request.guidance;
  const sampler = request.sampler ?? metadata?.sampler;
  if (present(sampler)) out.sampler = sampler;
  return out;
}

/** The file's settings with the corrections on top (an empty negative prompt corrected means none). */
export function effectiveSettings(source: SettingsSource, corrections: Corrections | undefined): ImageSettings {
  const out: ImageSettings = { ...fileSettings(source) };
  if (corrections === undefined) return out;
  for (const [key, value] of Object.entries(corrections) as Array<[keyof Corrections, unknown]>) {
    if (value !== undefined) (out as unknown as Record<string, unknown>)[key] = value;
  }
  if (out.negativePrompt === '') delete out.negativePrompt;
  return out;
}

/** The request Reuse, Retry and export send on: the file's, with each corrected field replaced. */
export function effectiveRequest(request: StoredRequest, corrections: Corrections | undefined): StoredRequest {
  if (corrections === undefined) return request;
  const out: StoredRequest = { ...request };
  const c = corrections;
  if (c.prompt !== undefined) out.prompt = c.prompt;
  if (c.negativePrompt !== undefined) {
    if (c.negativePrompt.length > 0) out.negativePrompt = c.negativePrompt;
    else delete out.negativePrompt;
  }
  if (c.seed !== undefined) out.seed = c.seed;
  if (c.steps !== undefined) out.steps = c.steps;
  if (c.guidance !== undefined) out.guidance = c.guidance;
  if (c.width !== undefined) out.width = c.width;
  if (c.height !== undefined) out.height = c.height;
  // The built-in generator has its own model and sampler: a file's names for them live in its metadata (to-imported.ts).
  if (request.provider !== 'builtin') {
    if (c.model !== undefined) out.model = c.model;
    if (c.sampler !== undefined) out.sampler = c.sampler;
  }
  return out;
}

/** An imported file's metadata with the corrected model and sampler names (the rest is the file's). */
export function effectiveMetadata<M extends Pick<ImportedMetadata, 'model' | 'sampler'>>(
  metadata: M,
  corrections: Corrections | undefined,
): M {
  if (corrections === undefined) return metadata;
  return {
    ...metadata,
    ...(corrections.model === undefined ? {} : { model: corrections.model }),
    ...(corrections.sampler === undefined ? {} : { sampler: corrections.sampler }),
  };
}

/**
 * A job's detail as it should be used (Reuse, Retry, export): request, metadata, the shown prompt, size and model,
 * and its one image's seed all corrected. Without corrections, the detail itself.
 */
export function correctedDetail(detail: JobDetail): JobDetail {
  const c = detail.corrections;
  if (c === undefined || Object.keys(c).length === 0) return detail;
  const settings = effectiveSettings(
    { request: detail.request, metadata: detail.metadata, seed: detail.result?.seed },
    c,
  );
  const out: JobDetail = {
    ...detail,
    request: effectiveRequest(detail.request, c),
    prompt: settings.prompt,
    width: settings.width,
    height: settings.height,
  };
  if (settings.negativePrompt === undefined) delete out.negativePrompt;
  else out.negativePrompt = settings.negativePrompt;
  if (settings.model !== undefined) out.model = settings.model;
  if (detail.metadata !== undefined) out.metadata = effectiveMetadata(detail.metadata, c);
  if (c.seed !== undefined) {
    out.images = detail.images.map((image) => ({ ...image, seed: c.seed! }));
    if (detail.result !== undefined) out.result = { ...detail.result, seed: c.seed };
  }
  return out;
}
