import { CONTROL_CHARS, type GenerateRequest, type ServerModel } from '../../shared/contract.js';
import type { JobStore } from '../db/types.js';
import type { Provider, ProviderConfig, ProviderListing } from '../providers/types.js';
import { systemClock, type Clock } from '../base/clock.js';
import { cleanServerModels } from '../providers/server-models.js';

/** A server's model list as last fetched: kept across restarts so the pickers work offline. */
export interface ModelList {
  models: string[];
  listedAt: number;
  /** A1111's upscalers, listed with its models. */
  upscalers?: string[];
  /** Everything the server listed for the model library (checkpoints, LoRAs, embeddings, VAEs). */
  library?: ServerModel[];
}

export interface ModelCache {
  get(providerId: string): ModelList | undefined;
  /** Keeps what a successful test or listing fetched (cleaned: a server's names are untrusted text). */
  put(
    providerId: string,
    models: readonly unknown[],
    upscalers?: readonly unknown[],
    library?: readonly unknown[],
  ): void;
  /** The models a picker offers: those known without the network first, then the server's list. */
  merged(providerId: string, known: readonly string[]): string[];
  /**
   * Refetches each list that is missing or older than the stale age (at most one try per stale age), waiting up to
   * `waitMs` so a listing stays quick when a server hangs; a fetch still running then lands for the next listing.
   */
  refreshStale(targets: Array<{ id: string; fetch: () => Promise<ProviderListing> }>): Promise<void>;
}

const KEY_PREFIX = 'providerModels.';
const MAX_MODELS = 1_000;
// The request's own model limit: a name longer than a submit may carry is not one a person can choose.
const MAX_NAME = 200;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const MODEL_LIST_STALE_MS = 10 * 60_000;
// One server's library as kept in settings: past this many characters of text the rest waits for a smaller list.
const MAX_LIBRARY_CHARS = 2_000_000;
const LIST_WAIT_MS = 1_500;

function clean(models: readonly unknown[]): string[] {
  const out = new Set<string>();
  for (const name of models) {
    if (
      typeof name !== 'string' ||
      name.length === 0 ||
      name.length > MAX_NAME ||
      CONTROL_CHARS.test(name) ||
      LONE_SURROGATE.test(name)
    )
      continue;
    out.add(name);
    if (out.size >= MAX_MODELS) break;
  }
  return [...out];
}

/** The library list cleaned again (it may come from an older file or a server) and bounded in total size. */
function cleanLibrary(raw: readonly unknown[]): ServerModel[] {
  const out: ServerModel[] = [];
  let chars = 0;
  for (const model of cleanServerModels(raw)) {
    chars += 32 + model.name.length + (model.hash?.length ?? 0) + (model.baseModel?.length ?? 0);
    for (const word of model.triggerWords ?? []) chars += word.length + 3;
    if (chars > MAX_LIBRARY_CHARS) break;
    out.push(model);
  }
  return out;
}

export function createModelCache(
  store: Pick<JobStore, 'getSetting' | 'setSetting'>,
  options: { clock?: Clock; staleMs?: number; waitMs?: number } = {},
): ModelCache {
  const clock = options.clock ?? systemClock;
  const staleMs = options.staleMs ?? MODEL_LIST_STALE_MS;
  const waitMs = options.waitMs ?? LIST_WAIT_MS;
  const loaded = new Map<string, ModelList | undefined>();
  const tried = new Map<string, number>();
  const running = new Map<string, Promise<void>>();

  const get = (id: string): ModelList | undefined => {
    if (!loaded.has(id)) {
      const stored = store.getSetting<ModelList>(`${KEY_PREFIX}${id}`);
      loaded.set(
        id,
        stored !== null && Array.isArray(stored.models)
          ? {
              models: clean(stored.models),
              listedAt: Number(stored.listedAt) || 0,
              ...(Array.isArray(stored.upscalers) ? { upscalers: clean(stored.upscalers) } : {}),
              ...(Array.isArray(stored.library) ? { library: cleanLibrary(stored.library) } : {}),
            }
          : undefined,
      );
    }
    return loaded.get(id);
  };

  const put = (
    id: string,
    models: readonly unknown[],
    upscalers?: readonly unknown[],
    library?: readonly unknown[],
  ): void => {
    const list: ModelList = {
      models: clean(models),
      listedAt: clock.now(),
      ...(upscalers === undefined ? {} : { upscalers: clean(upscalers) }),
      ...(library === undefined ? {} : { library: cleanLibrary(library) }),
    };
    store.setSetting(`${KEY_PREFIX}${id}`, list);
    loaded.set(id, list);
  };

  const refresh = (id: string, fetch: () => Promise<ProviderListing>): Promise<void> => {
    const pending = running.get(id);
    if (pending !== undefined) return pending;
    tried.set(id, clock.now());
    const run = fetch()
      .then((result) => {
        if (result.ok) put(id, result.models, result.upscalers, result.library);
      })
      // A server that is down keeps its last list: that is the point of keeping it.
      .catch(() => undefined)
      .finally(() => running.delete(id));
    running.set(id, run);
    return run;
  };

  return {
    get,
    put,
    merged(id, known) {
      return [...new Set([...known, ...(get(id)?.models ?? [])])];
    },
    async refreshStale(targets) {
      const now = clock.now();
      const due = targets.filter(
        ({ id }) => now - (get(id)?.listedAt ?? -Infinity) >= staleMs && now - (tried.get(id) ?? -Infinity) >= staleMs,
      );
      if (due.length === 0) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
      await Promise.race([Promise.all(due.map(({ id, fetch }) => refresh(id, fetch))), bound]);
      clearTimeout(timer);
    },
  };
}

/**
 * The request as it will run, so the job records the model that ran: the one asked for, else the default from
 * Settings, else (for a provider that cannot run without one) the first model the server listed.
 */
export function withListedModel(
  request: GenerateRequest,
  provider: Provider,
  config: ProviderConfig,
  cache: ModelCache | undefined,
): GenerateRequest {
  // An upscale runs no checkpoint: recording one would tell the person something that did not happen.
  if (request.model !== undefined || request.upscale !== undefined) return request;
  if (config.model !== undefined && config.model !== '') return { ...request, model: config.model };
  if (provider.requiresModel?.(config) !== true) return request;
  const first = cache?.get(provider.id)?.models[0];
  return first === undefined ? request : { ...request, model: first };
}
