import type { ModelKind, ServerModel } from '../../../shared/contract.js';
import { readJson } from '../http/body.js';
import type { CallScope } from '../http/errors.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import { LIBRARY_LIMITS, cleanServerModels } from '../server-models.js';
import { comboOptions } from './upscalers.js';

/** The loader nodes whose file lists are the server's models (docs/provider-protocols.md §3.5), by what they load. */
const LOADERS: ReadonlyArray<{ node: string; input: string; kind: ModelKind }> = [
  { node: 'LoraLoader', input: 'lora_name', kind: 'lora' },
  { node: 'LoraLoaderModelOnly', input: 'lora_name', kind: 'lora' },
  { node: 'VAELoader', input: 'vae_name', kind: 'vae' },
];

/** Names as one kind, bounded: ComfyUI gives neither hashes nor training tags. */
export function asKind(kind: ModelKind, names: readonly unknown[]): ServerModel[] {
  return cleanServerModels(names.slice(0, LIBRARY_LIMITS.perKind).map((name) => ({ kind, name })));
}

/** A loader node's file list from its /object_info/{class} answer (none when the node is missing: `{}`). */
export function loaderFiles(json: unknown, node: string, input: string): string[] {
  return comboOptions(json, node, input);
}

/** GET /embeddings: a list of names. */
export function embeddingsOf(json: unknown): ServerModel[] {
  return Array.isArray(json) ? asKind('embedding', json) : [];
}

async function getJson(base: string, path: string, headers: Record<string, string>, scope: CallScope, max: number) {
  const response = await send(joinUrl(base, path), { headers }, scope);
  if (response.status !== 200) {
    await response.body?.cancel();
    return undefined;
  }
  return readJson(response, max, scope, `the ${path} answer`);
}

/**
 * The LoRAs, VAEs and embeddings the server has (the checkpoints come with the test). Each list is optional: a
 * missing node, a 404 or a shape it does not know drops that list, never the test.
 */
export async function listLibraryExtras(
  base: string,
  headers: Record<string, string>,
  scope: CallScope,
  maxBytes: number,
): Promise<ServerModel[]> {
  const loaders = LOADERS.map(async ({ node, input, kind }) => {
    try {
      return asKind(
        kind,
        loaderFiles(await getJson(base, `object_info/${node}`, headers, scope, maxBytes), node, input),
      );
    } catch {
      return [];
    }
  });
  const embeddings = (async () => {
    try {
      return embeddingsOf(await getJson(base, 'embeddings', headers, scope, maxBytes));
    } catch {
      return [];
    }
  })();
  // LoraLoader and LoraLoaderModelOnly list the same folder: cleanServerModels keeps each file once.
  return cleanServerModels((await Promise.all([...loaders, embeddings])).flat());
}
