import { createQueueHandlers, type QueueHandlerDeps } from './queue-handlers.js';
import { AppError } from '../../shared/errors.js';
import {
  IMAGE_SOURCES,
  isTerminal,
  kindOfTarget,
  type ComfyNodeRule,
  type Handlers,
  type JobDetail,
} from '../../shared/contract.js';
import { correctedDetail } from '../../shared/corrections/effective.js';
import type { JobStore, RemovedFiles } from '../db/types.js';
import type { LibraryRecovery } from '../library/recovery.js';
import type { Importer } from '../library/import/importer.js';
import type { LibraryFolders } from '../library/import/library-folders.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import type { EventBus } from '../base/events.js';
import { withListedModel, type ModelCache } from './model-cache.js';
import { createSubmitBatcher } from './submit-batcher.js';
import type { CountPool } from '../db/count-pool.js';
import { createCurationHandlers } from './curation-handlers.js';
import { createAnnotationHandlers } from './annotation-handlers.js';
import type { SidecarWriter } from '../library/xmp/sidecar-writer.js';
import { createSimilarHandlers } from './similar-handlers.js';
import { createInstanceHandlers } from './instance-handlers.js';
import { partMessage, splitBatch } from '../scheduler/split-batch.js';
import { checkMissingAssets, withListedLoraNames } from './missing-assets.js';
import { createSweepHandlers } from './sweep-handlers.js';
import { createSweepSheetHandlers, originalBytes } from './sweep-sheet-handlers.js';
import { createModelLibraryHandlers } from './model-library-handlers.js';
import { createPresetHandlers } from './preset-handlers.js';
import { createPromptRecorder } from './prompt-recorder.js';
import { createIterateHandlers } from './iterate-handlers.js';
import type { createSimilarIndex } from '../library/similar/similar-index.js';
import type { ProviderRegistry } from './provider-registry.js';
import type { SettingsService } from './settings-service.js';
import type { Logger } from '../base/logger.js';
import type { JobInputs } from './job-inputs.js';
import type { OriginalReader } from '../library/originals/original-reader.js';
import { checkOperationSupported } from './operation-support.js';
import { createExportHandlers } from './export-handlers.js';
import type { Exporter } from '../library/export/exporter.js';
import type { Rereader } from '../library/reread/rereader.js';
import { createSpendHandlers } from '../spend/handlers.js';
import type { SummaryDeps } from '../spend/summary.js';
import { createDiscoveryHandlers } from './discovery/handlers.js';
import type { EngineCandidate } from './discovery/candidates.js';

export interface HandlerDeps {
  /** Queue control (electron/scheduler/queue-control.ts) and the instances its state lists. */
  queue: Pick<QueueHandlerDeps, 'control' | 'instances'>;
  store: JobStore;
  scheduler: Scheduler;
  providers: ProviderRegistry;
  settings: SettingsService;
  bus: EventBus;
  /** Deletes files the store no longer references (after the commit). */
  removeFiles(files: string[]): Promise<void>;
  /** Image rows whose file is missing, found by the start-up check. */
  missingFiles(): number;
  /** The servers' model lists, for a request that names no model. */
  models?: ModelCache;
  /** Kept orphans, a database that looks lost, and the rebuild from files. */
  recovery: LibraryRecovery;
  /** Applies saved retention limits now (moves jobs to the trash; the person saw how many first). */
  applyRetention(): Promise<void>;
  /** Imports of other tools' images, and the folders they came from. */
  importer: Importer;
  folders: LibraryFolders;
  sidecars: Pick<SidecarWriter, 'queue'>;
  /** The thread that counts a query's matches and reads the model library's usage (electron/db/count-pool.ts). */
  counts?: Pick<CountPool, 'count' | 'rows'>;
  /** Warnings that answer no request (a prompt the history could not record). */
  log?: Pick<Logger, 'warn'>;
  /** Find similar and duplicates over the perceptual hashes. */
  similar: ReturnType<typeof createSimilarIndex>;
  /** The images a request works from (image-to-image, masked edit, upscale). */
  inputs: Pick<JobInputs, 'check'>;
  /** Guarded reads of originals (a sweep's sheet draws each cell from its image's own bytes). */
  originals: Pick<OriginalReader, 'read'>;
  dataDir: string;
  /** Exports of a selection or a query to a ZIP or a folder. */
  exporter: Pick<Exporter, 'start' | 'list' | 'cancel'>;
  /** Re-reads imported files' settings with this build's readers. */
  rereader: Pick<Rereader, 'request' | 'requestSources' | 'status'>;
  /** What paid jobs cost, the caps and the spend gate's holds (electron/spend/). */
  spend: SummaryDeps;
  /** Where engines.find looks on this computer (tests: fakes' ports); the usual ports when absent. */
  engineCandidates?: readonly EngineCandidate[] | undefined;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** The tools whose files carry ComfyUI graphs, which a person's node rules read. */
const COMFY_GRAPH_SOURCES = ['comfyui', 'civitai'] as const;
const sameRules = (a: readonly ComfyNodeRule[], b: readonly ComfyNodeRule[]): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

const desktopOnly = (): never => {
  throw new AppError('desktop_only', 'This works in the desktop app only.');
};

const LOCATION_CHANNELS = [
  'library.location',
  'library.move.start',
  'library.move.status',
  'library.move.cancel',
  'library.deleteOldCopy',
  'library.retryLocation',
  'library.useLocation',
] as const;

/** The library's folder is the host's to change (it closes and reopens the engine): an engine alone refuses. */
function hostOnlyLocationHandlers(): Pick<Handlers, (typeof LOCATION_CHANNELS)[number]> {
  const refuse = async (): Promise<never> => {
    throw new AppError(
      'conflict',
      'Moving the library is done by the app or the headless host, not by the engine alone.',
    );
  };
  return Object.fromEntries(LOCATION_CHANNELS.map((name) => [name, refuse])) as unknown as Pick<
    Handlers,
    (typeof LOCATION_CHANNELS)[number]
  >;
}

/** The engine's channel handlers: transport-free, over contract types. */
export function createHandlers(deps: HandlerDeps): Handlers {
  const { store, scheduler, providers, settings, bus } = deps;
  // Past this many images a source shows "1,000+": each count stays a short index walk at any library size.
  const SOURCE_COUNT_CAP = 1_000;

  const announce = (ids: string[]): void => {
    for (const id of ids) {
      try {
        bus.emit('jobs.changed', { job: store.getSummary(id) });
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'not_found')) throw error;
      }
    }
  };

  // The job as just stored, announced without reading it back (a burst announces hundreds).
  const announceJob = (job: JobDetail): void => {
    const {
      request: _request,
      result: _result,
      errorDetail: _errorDetail,
      cancelRequested: _cancel,
      events: _events,
      ...summary
    } = job;
    bus.emit('jobs.changed', { job: summary });
  };
  const batcher = createSubmitBatcher(store);
  const prompts = createPromptRecorder(store, deps.log);

  const removed = async (result: RemovedFiles): Promise<{ removed: number; bytesFreed: number }> => {
    if (result.ids.length > 0) bus.emit('jobs.removed', { ids: result.ids });
    announce(result.changed ?? []);
    await deps.removeFiles(result.files);
    return { removed: result.removed, bytesFreed: result.bytesFreed };
  };

  // jobs.submit's checks with nothing stored: a sweep checks every cell before it stores any.
  const checked = async (asked: Parameters<Handlers['jobs.submit']>[0]) => {
    deps.inputs.check(asked);
    const { provider, config } = await providers.ready(asked.provider, asked.model);
    // The model and LoRAs the person named, against the servers' last listings (a default model is Settings' own).
    const assets = {
      models: deps.models,
      instances: () => providers.instances(),
      listsFiles: (id: string) => providers.get(id).listsModels === true,
    };
    checkMissingAssets(asked, assets);
    const request = withListedModel(withListedLoraNames(asked, assets), provider, config, deps.models);
    // What the request's own model can do (a default of dall-e-3 must not refuse an image for gpt-image-1).
    checkOperationSupported(
      request,
      provider.name,
      provider.capabilities({ ...config, ...(request.model === undefined ? {} : { model: request.model }) }),
    );
    provider.validate(request, config);
    return { request, provider, config };
  };

  const submit = async (
    asked: Parameters<Handlers['jobs.submit']>[0],
    split = true,
  ): Promise<{ job: JobDetail; created: boolean }> => {
    const { request, provider, config } = await checked(asked);
    // A batch for any of a local kind becomes one job per server; the first is the answer, the rest are announced.
    const parts = split ? splitBatch(request, providers) : [{ request, first: 0, part: 1, parts: 1 }];
    for (const part of parts) provider.validate(part.request, config);
    const results = await Promise.all(parts.map((part) => batcher.submit(part.request)));
    results.forEach((r, i) => {
      if (!r.created) return;
      if (parts.length > 1)
        store.appendEvent(
          r.job.id,
          'split',
          partMessage(parts[i]!, request.count, kindOfTarget(request.provider) ?? ''),
          { first: parts[i]!.first, part: parts[i]!.part, parts: parts.length },
        );
      announceJob(r.job);
    });
    if (results.some((r) => r.created)) {
      scheduler.kick();
      prompts.record(request.prompt);
    }
    return results[0]!;
  };

  const handlers: Handlers = {
    'jobs.submit': (asked) => submit(asked),
    'jobs.list': async (query) => store.list(query),
    'jobs.get': async ({ id }) => store.get(id),
    'jobs.cancel': async ({ id }) => {
      const before = store.get(id);
      const after = store.requestCancel(id);
      if (after.status === 'running') scheduler.cancel(id);
      if (after.status !== before.status || after.cancelRequested !== before.cancelRequested) announce([id]);
      return after;
    },
    'jobs.retry': async ({ id }) => {
      const original = store.get(id);
      if (!isTerminal(original.status)) {
        throw new AppError(
          'conflict',
          'This job is still queued or running: wait for it to finish, or cancel it first.',
        );
      }
      // An imported file's settings as corrected (shared/corrections/effective.ts), never what was misread.
      const result = await submit({ ...correctedDetail(original).request });
      store.linkRetry(id, result.job.id);
      announce([id, result.job.id]);
      return { job: store.get(result.job.id), created: result.created };
    },
    'jobs.setFavorite': async ({ ids, favorite }) => {
      const updated = store.setFavorite(ids, favorite);
      announce(ids);
      return { updated };
    },
    'jobs.trash': async ({ ids }) => {
      const updated = store.trash(ids);
      announce(ids);
      return { updated };
    },
    'jobs.restore': async ({ ids }) => {
      const updated = store.restore(ids);
      announce(ids);
      return { updated };
    },
    'jobs.purge': async ({ ids }) => removed(store.purge(ids)),
    'jobs.emptyTrash': async () => removed(store.emptyTrash()),
    'jobs.purgeTrashed': async ({ ids, imageIds }) => removed(store.purgeTrashed(ids, imageIds)),
    'jobs.stats': async () => {
      const s = store.stats();
      return {
        byStatus: s.byStatus,
        total: s.total,
        trashed: s.trashed,
        favorites: s.favorites,
        images: s.images,
        databaseBytes: s.databaseBytes,
        mediaBytes: s.imageBytes,
        missingFiles: deps.missingFiles(),
        ...deps.recovery.stats(),
        queue: { waiting: scheduler.waiting() },
      };
    },
    'jobs.trashSummary': async () => store.trashSummary(),
    'jobs.previewRetention': async ({ maxJobs, maxBytes, maxAgeDays }) => {
      const move = store.previewPrune({
        maxJobs,
        maxBytes,
        maxAgeMs: maxAgeDays === null ? null : maxAgeDays * DAY_MS,
      });
      return { jobs: move.jobs, images: move.images, bytes: move.bytes };
    },
    'library.rebuild': async () => deps.recovery.rebuild(),
    'library.removeOrphans': async ({ expectedCount }) => deps.recovery.removeOrphans(expectedCount),
    'library.import': async (request) => ({ import: await deps.importer.import(request) }),
    'library.imports': async () => ({ items: deps.importer.list() }),
    'library.reread': async ({ ids, query }) => {
      const imageIds = store.curation.resolve(ids !== undefined ? { ids } : { query: query! });
      return { marked: deps.rereader.request(imageIds) };
    },
    'library.rereadStatus': async () => deps.rereader.status(),
    'library.cancelImport': async ({ id }) => ({ import: await deps.importer.stop(id, 'cancel') }),
    'library.pauseImport': async ({ id }) => ({ import: await deps.importer.stop(id, 'pause') }),
    'library.resumeImport': async ({ id }) => ({ import: deps.importer.resume(id) }),
    'library.folders': async () => ({ items: deps.folders.list() }),
    'library.setFolderWatch': async ({ id, watch }) => ({ folder: await deps.folders.setWatch(id, watch) }),
    'library.sources': async () => ({ items: store.imports.sourceCounts(IMAGE_SOURCES, SOURCE_COUNT_CAP) }),
    'library.removeFolder': async ({ id }) => {
      const { trashed } = await deps.folders.remove(id);
      announce(trashed);
      return { trashed: trashed.length };
    },
    ...createSimilarHandlers(deps.similar),
    'providers.list': async () => ({ providers: await providers.list() }),
    'providers.test': async ({ id }) => providers.test(id),
    'settings.get': async () => settings.publicView(),
    'settings.update': async (patch) => {
      const before = settings.current().library.comfyNodeRules;
      const next = await settings.update(patch);
      scheduler.kick();
      // New node rules read ComfyUI graphs differently: those files are read again (Civitai's carry graphs too).
      if (patch.library?.comfyNodeRules !== undefined && !sameRules(before, patch.library.comfyNodeRules)) {
        deps.rereader.requestSources(COMFY_GRAPH_SOURCES);
      }
      const limits = patch.retention;
      if (
        limits !== undefined &&
        (limits.maxJobs !== undefined || limits.maxBytes !== undefined || limits.maxAgeDays !== undefined)
      ) {
        await deps.applyRetention();
      }
      return next;
    },
    'desktop.reveal': async () => desktopOnly(),
    'desktop.copyImage': async () => desktopOnly(),
    'desktop.saveAs': async () => desktopOnly(),
    'desktop.startDrag': async () => desktopOnly(),
    'desktop.pickImportPaths': async () => desktopOnly(),
    'desktop.pickFolder': async () => desktopOnly(),
    'desktop.droppedImages': async () => desktopOnly(),
    // Only the desktop app has an installer to update; main.ts answers these there.
    'updates.status': async () => ({ state: 'off', reason: 'unsupported' }),
    'updates.restart': async () => desktopOnly(),
    ...hostOnlyLocationHandlers(),
    ...createCurationHandlers({
      store,
      bus,
      now: () => Date.now(),
      announce,
      sidecars: deps.sidecars,
      ...(deps.counts === undefined ? {} : { counts: deps.counts }),
    }),
    ...createAnnotationHandlers({ store, bus, now: () => Date.now(), announce, sidecars: deps.sidecars }),
    ...createInstanceHandlers({ providers, store, announce, kick: () => scheduler.kick() }),
    ...createPresetHandlers(store),
    // Each cell one job through jobs.submit's path; unsplit, so a cell's images stay one job in its cell.
    ...createSweepHandlers({
      store,
      check: async (request) => void (await checked(request)),
      submit: (request) => submit(request, false),
      announce,
      now: () => Date.now(),
    }),
    ...createSweepSheetHandlers({
      getSweep: (id) => handlers['sweeps.get']({ id }),
      readImage: originalBytes(deps.dataDir, store, deps.originals),
      dataDir: deps.dataDir,
      now: () => Date.now(),
    }),
    ...createModelLibraryHandlers({
      store,
      providers,
      settings: deps.settings,
      models: deps.models,
      counts: deps.counts,
    }),
    ...createIterateHandlers({ store, dataDir: deps.dataDir, now: () => Date.now() }),
    ...createExportHandlers(deps.exporter),
    ...createSpendHandlers(deps.spend),
    ...createQueueHandlers({
      ...deps.queue,
      store,
      kick: () => scheduler.kick(),
      announce,
      broadcast: (state) => bus.emit('queue.control', state),
    }),
    ...createDiscoveryHandlers({
      providers,
      settings,
      kick: () => scheduler.kick(),
      ...(deps.engineCandidates === undefined ? {} : { candidates: deps.engineCandidates }),
    }),
  };
  return handlers;
}
