import type { ModelKind, ServerModel } from '../../../shared/contract.js';
import { readJson } from '../http/body.js';
import type { CallScope } from '../http/errors.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import { LIBRARY_LIMITS, baseModelOf, cleanHash, cleanServerModels, cleanText } from '../server-models.js';
import type { Credentials } from './connection.js';

const own = (value: unknown, key: string): unknown =>
  value !== null && typeof value === 'object' && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;

const firstItems = (json: unknown): unknown[] =>
  Array.isArray(json) ? json.slice(0, LIBRARY_LIMITS.perKind) : ([] as unknown[]);

/** GET /sdapi/v1/sd-models: `[{title, model_name, hash, sha256, filename}]` (docs/provider-protocols.md §2.9). */
export function checkpointsOf(json: unknown): ServerModel[] {
  return cleanServerModels(
    firstItems(json).map((m) => ({
      kind: 'checkpoint',
      name: own(m, 'model_name'),
      hash: cleanHash(own(m, 'sha256')) ?? own(m, 'hash'),
    })),
  );
}

/**
 * kohya's ss_tag_frequency, `{folder: {tag: count}}` (an object, or still its JSON text): the tags by how often they
 * were trained, most first. Reads at most LIBRARY_LIMITS.tagsRead tags, so a hostile list costs no more than that.
 */
export function triggerWordsOf(frequency: unknown): string[] {
  let folders = frequency;
  if (typeof folders === 'string') {
    if (folders.length > LIBRARY_LIMITS.tagJson) return [];
    try {
      folders = JSON.parse(folders) as unknown;
    } catch {
      return [];
    }
  }
  if (folders === null || typeof folders !== 'object' || Array.isArray(folders)) return [];
  const counts = new Map<string, number>();
  let read = 0;
  for (const folder of Object.values(folders as Record<string, unknown>)) {
    if (folder === null || typeof folder !== 'object' || Array.isArray(folder)) continue;
    // for…in with a break reads no value past the bound (Object.entries would read them all first).
    for (const tag in folder) {
      if (!Object.hasOwn(folder, tag)) continue;
      if (++read > LIBRARY_LIMITS.tagsRead) break;
      const count = (folder as Record<string, unknown>)[tag];
      const word = cleanText(tag, LIBRARY_LIMITS.triggerWord);
      const n = typeof count === 'number' && Number.isFinite(count) ? count : 0;
      if (word !== undefined && n > 0) counts.set(word, (counts.get(word) ?? 0) + n);
    }
    if (read > LIBRARY_LIMITS.tagsRead) break;
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, LIBRARY_LIMITS.triggerWords)
    .map(([word]) => word);
}

/** GET /sdapi/v1/loras (the built-in Lora extension): `[{name, alias, path, metadata}]`, metadata the file's own. */
export function lorasOf(json: unknown): ServerModel[] {
  return cleanServerModels(
    firstItems(json).map((l) => {
      const metadata = own(l, 'metadata');
      const baseModel = baseModelOf(
        own(metadata, 'modelspec.architecture'),
        own(metadata, 'ss_base_model_version'),
        own(metadata, 'ss_sd_model_name'),
      );
      return {
        kind: 'lora',
        name: own(l, 'name'),
        hash: own(metadata, 'sshs_model_hash'),
        baseModel,
        triggerWords: triggerWordsOf(own(metadata, 'ss_tag_frequency')),
      };
    }),
  );
}

/** GET /sdapi/v1/embeddings: `{loaded: {name: {...}}, skipped: {name: {...}}}`; both are files on the server. */
export function embeddingsOf(json: unknown): ServerModel[] {
  const names: unknown[] = [];
  for (const part of ['loaded', 'skipped']) {
    const group = own(json, part);
    if (group === null || typeof group !== 'object' || Array.isArray(group)) continue;
    for (const name of Object.keys(group)) {
      if (names.length >= LIBRARY_LIMITS.perKind) break;
      names.push(name);
    }
  }
  return cleanServerModels(names.map((name) => ({ kind: 'embedding', name })));
}

/** GET /sdapi/v1/sd-vae: `[{model_name, filename}]`. */
export function vaesOf(json: unknown): ServerModel[] {
  return cleanServerModels(firstItems(json).map((v) => ({ kind: 'vae', name: own(v, 'model_name') })));
}

const SOURCES: ReadonlyArray<{ path: string; kind: ModelKind; parse: (json: unknown) => ServerModel[] }> = [
  { path: 'sdapi/v1/loras', kind: 'lora', parse: lorasOf },
  { path: 'sdapi/v1/embeddings', kind: 'embedding', parse: embeddingsOf },
  { path: 'sdapi/v1/sd-vae', kind: 'vae', parse: vaesOf },
];

/**
 * The LoRAs, embeddings and VAEs the server has, each list asked at once. Every endpoint is optional: a 404 (the
 * Lora extension turned off), a body that is not JSON or a shape it does not know drops that kind, never the test.
 */
export async function listLibraryExtras(
  creds: Credentials,
  maxBytes: number,
  scope: CallScope,
): Promise<ServerModel[]> {
  const lists = await Promise.all(
    SOURCES.map(async ({ path, kind, parse }) => {
      try {
        const response = await send(joinUrl(creds.base, path), { headers: creds.headers }, scope);
        if (response.status !== 200) {
          await response.body?.cancel();
          return [];
        }
        return parse(await readJson(response, maxBytes, scope, `the ${kind} list`));
      } catch {
        return [];
      }
    }),
  );
  return lists.flat();
}
