import { unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStore } from '../db/store.js';
import type { JobStore, StoreOptions } from '../db/types.js';
import { createLibraryRecovery } from '../library/recovery.js';
import { createImporter, type ImporterDeps } from '../library/import/importer.js';
import { createLibraryFolders } from '../library/import/library-folders.js';
import { createThumbnailer } from '../library/import/thumbnailer.js';
import { createSidecarWriter } from '../library/xmp/sidecar-writer.js';
import { createExporter } from '../library/export/exporter.js';
import { createHashBackfill } from '../library/similar/hash-backfill.js';
import { createSimilarIndex } from '../library/similar/similar-index.js';
import { checkOriginals } from '../library/import/originals-check.js';
import { createFolderSync, type FolderSync } from '../library/import/folder-sync.js';
import { createFolderWatcher } from '../library/watch/index.js';
import { join } from 'node:path';
import { findMissingFiles, removePreviewFolders, sweepOrphans, type MediaFs } from '../media/index.js';
import { resolveInsideDataDir } from '../base/paths.js';
import { createSecretBook } from '../providers/redact.js';
import { createProgressThrottle } from '../scheduler/progress-throttle.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../scheduler/retry-policy.js';
import { createScheduler } from '../scheduler/scheduler.js';
import { createInstanceHealth } from '../scheduler/instance-health.js';
import type { JobProgressEvent } from '../../shared/contract.js';
import { defaultProviders } from './default-providers.js';
import { createEventBus } from '../base/events.js';
import { createHandlers } from './handlers.js';
import { collectImagePaths } from '../library/image-paths.js';
import { createJobMedia } from './job-media.js';
import { createJobInputs } from './job-inputs.js';
import { createOriginalReader } from '../library/originals/original-reader.js';
import { holdMetadataReaders } from '../library/readers/off-thread.js';
import { imageSourceOf } from '../library/originals/image-source.js';
import { createModelCache } from './model-cache.js';
import { connectionOf, createProviderOutcomes, trackJobOutcomes } from './provider-outcomes.js';
import { createRetention } from './retention.js';
import { createProviderRegistry, type ProviderEntry } from './provider-registry.js';
import { redactingLog } from './redacting-log.js';
import { createSettingsService, type ProviderDefaults } from './settings-service.js';
import { systemClock } from '../base/clock.js';
import { type Logger } from '../base/logger.js';
import { type Engine, type EngineOptions, type MediaFile } from './types.js';

const HOUR = 60 * 60 * 1000;

export interface EngineTestOptions {
  /** Replaces the default provider set (tests use fakes on loopback). */
  providers?: ProviderEntry[];
  retry?: RetryPolicy;
  maxResponseBytes?: number;
  /** Orphan files younger than this survive the start-up sweep. */
  sweepGraceMs?: number;
  /** Delay before the start-up library sweep and missing-file check (default 3 s); 0 runs them at once. */
  housekeepingDelayMs?: number;
  /** How long past a provider's timeout the worker waits before aborting it itself. */
  hardTimeoutGraceMs?: number;
  /** Interval for retention (trash auto-empty, prune); 0 disables the timer. */
  maintenanceIntervalMs?: number;
  /** Fault injection: the store's connection and the media file system (test/faults). */
  wrapDatabase?: StoreOptions['wrapDatabase'];
  mediaFs?: MediaFs;
  /** Quiet time before a watched file is read (default 400 ms). */
  watchSettleMs?: number;
  /** How soon and how often a down instance is probed (default 2 s doubling to 60 s). */
  probeBackoff?: { firstMs: number; maxMs: number };
  /** Wraps each imported file's read (an e2e test holds an import mid-way). */
  wrapImportRead?: ImporterDeps['wrapRead'];
}

const silentLog: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The composition root: one engine per data dir, shared by the Electron app and the headless host. */
export async function createEngine(options: EngineOptions & EngineTestOptions): Promise<Engine> {
  const clock = options.clock ?? systemClock;
  const secrets = options.secrets ?? createSecretBook();
  const log = redactingLog(options.log ?? silentLog, secrets);
  const { dataDir, keyring } = options;

  const store: JobStore = openStore({
    dataDir,
    now: () => clock.now(),
    onSlowQuery: (name, ms) => log.warn('slow query', { name, ms: Math.round(ms) }),
    ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
    ...(options.wrapDatabase === undefined ? {} : { wrapDatabase: options.wrapDatabase }),
  });
  try {
    // Warm the history page's statements and pages so the window's first request is not the cold one.
    store.list({ limit: 60, view: 'active' });
    const interrupted = store.recoverInterrupted();
    if (interrupted > 0) log.warn('jobs interrupted by the last shutdown', { count: interrupted });

    const bus = createEventBus(log);
    const entries = options.providers ?? defaultProviders();
    const providerDefaults: ProviderDefaults = {};
    for (const entry of entries) {
      providerDefaults[entry.provider.id] = { ...entry.defaults, ...options.providerDefaults?.[entry.provider.id] };
    }
    const settings = createSettingsService({ store, keyring, dataDir, providerDefaults });
    const models = createModelCache(store, { clock });
    const outcomes = createProviderOutcomes(store);
    // The probe is the registry's connection test, which reports back to the tracker; the scheduler acts on it.
    const instances = createInstanceHealth({
      clock,
      probe: (id) => registry.test(id),
      onChange: () => scheduler.kick(),
      connection: (id) => connectionOf(settings.provider(id)),
      ...(options.probeBackoff === undefined ? {} : { backoff: options.probeBackoff }),
    });
    const registry = createProviderRegistry(entries, settings, {
      secrets,
      models,
      instanceHealth: instances,
      ...(options.maxResponseBytes === undefined ? {} : { maxResponseBytes: options.maxResponseBytes }),
      outcomes,
      now: () => clock.now(),
    });
    trackJobOutcomes({ events: bus, outcomes, registry, settings, log });
    const media = createJobMedia(dataDir, options.mediaFs);
    // Every read of a file Atelier did not write goes through this one guarded reader (and its memory budget).
    const originals = createOriginalReader();
    // Imported files' settings are read on these threads, within a time limit, never on this event loop.
    const metadataReaders = holdMetadataReaders();
    const inputs = createJobInputs(dataDir, store, originals);
    const throttle = createProgressThrottle<JobProgressEvent>((_, event) => bus.emit('jobs.progress', event));
    const scheduler = createScheduler({
      store,
      providers: registry,
      media,
      inputs,
      bus,
      throttle,
      clock,
      log,
      retry: options.retry ?? DEFAULT_RETRY_POLICY,
      hardTimeoutGraceMs: options.hardTimeoutGraceMs ?? 5_000,
      instances,
      models,
      limits: () => ({
        global: settings.current().concurrency.global,
        perProvider: (id) => settings.provider(id)?.concurrency ?? 1,
        waitMs: (id) => settings.provider(id)?.timeoutMs ?? 60_000,
      }),
    });

    let missing = 0;
    const removeFiles = async (files: string[]): Promise<void> => {
      for (const rel of files) {
        const path = resolveInsideDataDir(dataDir, rel);
        if (path === null) continue;
        await unlink(path).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') log.warn('could not remove a file', { path: rel, code: error.code });
        });
      }
    };
    const { announce, applyRetention, maintain } = createRetention({ store, settings, bus, log, removeFiles });

    let housekeepingDone: Promise<void> = Promise.resolve();
    let sweepStarted = false;
    const recovery = createLibraryRecovery({
      dataDir,
      store,
      log,
      now: () => clock.now(),
      announce: (ids) => {
        announce(ids).catch((error: unknown) => log.error('could not announce rebuilt jobs', { error: String(error) }));
      },
      sweepDone: () => (sweepStarted ? housekeepingDone : Promise.resolve()),
    });
    const hashes = createHashBackfill({
      dataDir,
      store,
      log,
      reader: originals,
      busy: () => importer.busy(),
      record: (id, hash) => similar.record(id, hash),
    });
    const similar = createSimilarIndex({ store, hashNow: (id) => hashes.hashOne(id) });
    // Deleted rows may give their rowids out again: the index reads them as new.
    bus.on('jobs.removed', () => similar.removed());
    const thumbnailer = createThumbnailer({
      dataDir,
      store,
      log,
      reader: originals,
      busy: () => importer.busy(),
      recordHash: (id, hash) => similar.record(id, hash),
      announce: (ids) =>
        void announce(ids).catch((error: unknown) =>
          log.error('could not announce thumbnails', { error: String(error) }),
        ),
    });
    // Assigned right below: the importer tells the folder sync about watched folders, which imports through it.
    const watched: { sync?: FolderSync } = {};
    const importer = createImporter({
      dataDir,
      store,
      bus,
      log,
      reader: originals,
      now: () => clock.now(),
      announce: (ids) => {
        if (ids.length === 0) return;
        announce(ids).catch((error: unknown) =>
          log.error('could not announce imported jobs', { error: String(error) }),
        );
        thumbnailer.kick();
      },
      onWatchedFolder: (id) => watched.sync?.watch(id),
      onWatchedFolderImported: (id) => void watched.sync?.checkpoint(id),
      ...(options.wrapImportRead === undefined ? {} : { wrapRead: options.wrapImportRead }),
    });
    const sync = createFolderSync({
      store,
      importer,
      log,
      skip: [dataDir],
      createWatcher: (onChanges) =>
        createFolderWatcher({
          snapshotDir: join(dataDir, 'watch'),
          onChanges,
          log,
          ...(options.watchSettleMs === undefined ? {} : { settleMs: options.watchSettleMs }),
        }),
    });
    watched.sync = sync;
    const folders = createLibraryFolders({
      store,
      watchState: (id) => sync.watchState(id),
      unwatch: (id) => sync.unwatch(id),
    });
    const sidecars = createSidecarWriter({ store, log, enabled: () => settings.current().library.xmpSidecars });
    const exporter = createExporter({
      dataDir,
      store,
      bus,
      log,
      reader: originals,
      now: () => clock.now(),
      resolveOriginal: (id) => imageSourceOf(dataDir, store, id),
    });
    const handlers = createHandlers({
      exporter,
      sidecars,
      importer,
      folders,
      store,
      scheduler,
      providers: registry,
      settings,
      bus,
      removeFiles,
      missingFiles: () => missing,
      recovery,
      applyRetention,
      models,
      similar,
      inputs,
      dataDir,
      log,
    });

    // Leftover previews go before the worker starts (afterwards their folders are live). The library sweep and the
    // missing-file check stat every file, so they wait until the window has its first page and run in the
    // background; files younger than the grace period (a job that is committing) are never taken.
    let closing = false;
    const housekeeping = async (): Promise<void> => {
      // An import running at start (resumed) is changing the library: the sweep and the checks wait for it to end,
      // and never hold up a quit.
      while (importer.busy() && !closing) await sleep(500);
      if (closing) return;
      const paths = await collectImagePaths(store);
      const sweep = await sweepOrphans(dataDir, paths.referenced, clock.now(), options.sweepGraceMs, undefined, {
        previews: false,
      });
      await recovery.afterSweep(sweep);
      missing = (await findMissingFiles(dataDir, paths.images)).count;
      if (missing > 0) log.warn('image files missing from disk', { count: missing });
      const originals = await checkOriginals(store.imports, importer);
      if (originals.gone + originals.back > 0) log.info('checked imported originals', { ...originals });
      await maintain();
    };
    let housekeepingTimer: ReturnType<typeof setTimeout> | undefined;
    const startup = removePreviewFolders(dataDir)
      .catch((error: unknown) => log.error('could not clear old previews', { error: String(error) }))
      .finally(() => {
        scheduler.start();
        importer.resumeInterrupted();
        thumbnailer.kick();
        sync.start().catch((error: unknown) => log.error('could not start watching folders', { error: String(error) }));
        const run = (): void => {
          sweepStarted = true;
          // Old images get their hashes once the window has its first page, like the other start-up passes.
          hashes.start();
          housekeepingDone = housekeeping().catch((error: unknown) =>
            log.error('start-up housekeeping failed', { error: String(error) }),
          );
        };
        if ((options.housekeepingDelayMs ?? 3_000) <= 0) run();
        else housekeepingTimer = setTimeout(run, options.housekeepingDelayMs ?? 3_000);
        housekeepingTimer?.unref();
      });

    const interval = options.maintenanceIntervalMs ?? HOUR;
    const timer =
      interval > 0
        ? setInterval(() => {
            maintain().catch((error: unknown) => log.error('maintenance failed', { error: String(error) }));
          }, interval)
        : undefined;
    timer?.unref();

    const resolveMedia = (kind: 'image' | 'thumb' | 'preview', imageId: string): MediaFile | null => {
      if (kind === 'preview') return media.previews.resolvePreview(imageId);
      const image = store.image(imageId);
      if (image === null) return null;
      if (kind === 'image' && image.linked) {
        const original = store.imports.original(imageId);
        return original === null
          ? null
          : { path: original.path, mime: image.mime, root: original.root, sha256: image.sha256 };
      }
      const rel = kind === 'image' ? image.path : image.thumbPath;
      if (rel === null) return null;
      const path = resolveInsideDataDir(dataDir, rel);
      if (path === null) return null;
      return { path, mime: kind === 'image' ? image.mime : 'image/webp' };
    };

    let closed: Promise<void> | undefined;
    return {
      dataDir,
      handlers,
      events: bus,
      resolveMedia,
      exportDownload: (id) => exporter.download(id),
      close(closeOptions = {}) {
        closed ??= (async () => {
          closing = true;
          await exporter.close();
          if (timer !== undefined) clearInterval(timer);
          await startup;
          clearTimeout(housekeepingTimer);
          await housekeepingDone;
          await sync.close();
          await importer.close();
          await thumbnailer.close();
          await sidecars.idle();
          await hashes.close();
          await scheduler.stop(closeOptions.graceMs ?? 3_000);
          await originals.close();
          await metadataReaders.release();
          for (const entry of entries) await entry.close?.();
          await registry.close();
          await store
            .backupIfChanged()
            .catch((error: unknown) => log.warn('could not back up the library on quit', { error: String(error) }));
          store.close();
        })();
        return closed;
      },
    };
  } catch (error) {
    store.close();
    throw error;
  }
}
