import type { Handlers } from '../../shared/contract.js';
import type { JobStore } from '../db/types.js';
import type { CountPool } from '../db/count-pool.js';
import type { ModelCache } from './model-cache.js';
import { mergeLibrary, queryLibrary, type MergedLibrary, type ServerLibrary } from './model-library.js';
import type { ModelUsage } from '../db/model-usage.js';
import type { ProviderRegistry } from './provider-registry.js';
import type { SettingsService } from './settings-service.js';

type Preview = ReturnType<JobStore['modelUsage']['previewImage']>;

export type ModelLibraryChannels = 'models.library' | 'models.setNote' | 'models.refresh';

export interface ModelLibraryDeps {
  store: Pick<JobStore, 'modelNotes' | 'modelUsage'>;
  providers: Pick<ProviderRegistry, 'instances' | 'get' | 'placeable' | 'test'>;
  settings: Pick<SettingsService, 'provider'>;
  models?: Pick<ModelCache, 'get'> | undefined;
  /** Reads the usage on the counting thread (absent: on this one, as unit tests do). */
  counts?: Pick<CountPool, 'rows'> | undefined;
}

/** The model library: every connected server's files with the images made with each (model-library.ts). */
export function createModelLibraryHandlers(deps: ModelLibraryDeps): Pick<Handlers, ModelLibraryChannels> {
  const { store, providers } = deps;
  // Turned on, and a server that lists its models: an instance turned off is not connected.
  const listing = () =>
    providers
      .instances()
      .filter((i) => deps.settings.provider(i.id)?.enabled === true && providers.get(i.id).listsModels === true);

  const servers = (): ServerLibrary[] =>
    listing().flatMap((i) => {
      const library = deps.models?.get(i.id)?.library;
      return library === undefined ? [] : [{ provider: i.id, library }];
    });

  // The merge and the previews kept while the usage copy and every server's list are the same objects.
  let kept: { usage: ModelUsage; lists: unknown[]; merged: MergedLibrary; previews: Map<string, Preview> } | undefined;
  const readUsage = async (): Promise<ModelUsage> => {
    if (deps.counts === undefined) return store.modelUsage.usage();
    const plan = store.modelUsage.usagePlan();
    return plan.finish(await deps.counts.rows(plan.statements, plan.version));
  };
  const current = async () => {
    const usage = await readUsage();
    const list = servers();
    const lists = list.flatMap((s) => [s.provider, s.library]);
    if (kept?.usage !== usage || kept.lists.length !== lists.length || kept.lists.some((x, i) => x !== lists[i]))
      kept = { usage, lists, merged: mergeLibrary(list, usage), previews: new Map() };
    return kept;
  };

  return {
    'models.library': async (query) => {
      const { merged, previews } = await current();
      return queryLibrary(
        merged,
        {
          notes: store.modelNotes.notes(),
          previewImage: (jobId) => {
            if (!previews.has(jobId)) previews.set(jobId, store.modelUsage.previewImage(jobId));
            return previews.get(jobId);
          },
        },
        query,
      );
    },
    'models.setNote': async ({ key, note }) => ({ note: store.modelNotes.setNote(key, note) }),
    // The registry's test lists each server again and keeps what it listed in the model cache.
    'models.refresh': async () => {
      const results = await Promise.all(
        listing()
          .filter((i) => providers.placeable(i.id))
          .map((i) => providers.test(i.id).then((r) => (r.ok ? (deps.models?.get(i.id)?.library?.length ?? 0) : -1))),
      );
      const listed = results.filter((n) => n >= 0);
      return { servers: listed.length, models: listed.reduce((a, b) => a + b, 0) };
    },
  };
}
