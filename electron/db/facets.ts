import type { StoredRequest } from '../../shared/contract.js';
import { foldForSearch } from './fold.js';

/** The settings a query filters on, folded once on the way in so every key is an indexed equality or range. */
export interface JobFacets {
  modelKey: string | null;
  samplerKey: string | null;
  schedulerKey: string | null;
  steps: number | null;
  cfg: number | null;
  negativeKey: string | null;
  /** Distinct LoRAs by folded name. */
  loras: Array<{ key: string; name: string }>;
  /** The settings as words for free-text search: `builtin`, `768`, `dpm++ 2m`, a seed typed alone. */
  settingsText: string;
}

interface FacetSource {
  provider: string;
  model?: string | null | undefined;
  request: Pick<
    StoredRequest,
    'width' | 'height' | 'sampler' | 'steps' | 'guidance' | 'negativePrompt' | 'model' | 'seed' | 'loras'
  >;
  metadata?:
    | {
        model?: string | undefined;
        sampler?: string | undefined;
        scheduler?: string | undefined;
        loras?: Array<{ name: string }> | undefined;
      }
    | null
    | undefined;
  /** Seeds known when the row is written (the request's, an imported file's). */
  seeds?: ReadonlyArray<number | string>;
}

const MAX_KEY = 200;
const key = (value: string | null | undefined): string | null => {
  if (value === null || value === undefined) return null;
  const folded = foldForSearch(value).trim().slice(0, MAX_KEY);
  return folded.length === 0 ? null : folded;
};
const finite = (value: number | undefined): number | null =>
  value !== undefined && Number.isFinite(value) ? value : null;

export function facetsOf(source: FacetSource): JobFacets {
  const { request, metadata } = source;
  const modelKey = key(metadata?.model ?? source.model ?? request.model);
  const samplerKey = key(metadata?.sampler ?? request.sampler);
  const schedulerKey = key(metadata?.scheduler);
  const loras = new Map<string, string>();
  // An imported file's LoRAs, or those a job made here asked for: `lora:` finds both alike.
  for (const lora of [...(metadata?.loras ?? []), ...(request.loras ?? [])]) {
    const k = key(lora.name);
    if (k !== null && !loras.has(k) && loras.size < 64) loras.set(k, lora.name.slice(0, MAX_KEY));
  }
  const seeds = new Set<string>((source.seeds ?? []).map(String));
  if (request.seed !== undefined) seeds.add(String(request.seed));
  const words = [
    foldForSearch(source.provider),
    modelKey,
    samplerKey,
    schedulerKey,
    `${request.width}x${request.height}`,
    ...seeds,
    ...loras.keys(),
  ];
  return {
    modelKey,
    samplerKey,
    schedulerKey,
    steps: finite(request.steps),
    cfg: finite(request.guidance),
    negativeKey: request.negativePrompt ? foldForSearch(request.negativePrompt) : null,
    loras: [...loras].map(([k, name]) => ({ key: k, name })),
    settingsText: words.filter((w): w is string => w !== null && w.length > 0).join(' '),
  };
}

/** The folded text jobs.search_text holds: the prompt, then the settings line (each on its own line; never the negative prompt). */
export function withSettings(searchText: string, facets: JobFacets): string {
  return facets.settingsText.length === 0 ? searchText : `${searchText}\n${facets.settingsText}`;
}
