import { unlink } from 'node:fs/promises';
import { createCountPool } from '../db/count-pool.js';
import { DATABASE_FILE, openStore } from '../db/store.js';
import type { JobStore, StoreOptions } from '../db/types.js';
import { createLibraryRecovery } from '../library/recovery.js';
import { createImporter, type ImporterDeps } from '../library/import/importer.js';
import { createLibraryFolders } from '../library/import/library-folders.js';
import { createThumbnailer } from '../library/import/thumbnailer.js';
import { createSidecarWriter } from '../library/xmp/sidecar-writer.js';
import { createExporter } from '../library/export/exporter.js';
import { createHashBackfill } from '../library/similar/hash-backfill.js';
import { createSimilarIndex } from '../library/similar/similar-index.js';
import { createFolderSync } from '../library/import/folder-sync.js';
import { createFolderWatcher } from '../library/watch/index.js';
import { join } from 'node:path';
import { removePreviewFolders, type MediaFs } from '../media/index.js';
import { resolveInsideDataDir } from '../base/paths.js';
import { createSecretBook } from '../providers/redact.js';
import { createProgressThrottle } from '../scheduler/progress-throttle.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../scheduler/retry-policy.js';
import { createScheduler } from '../scheduler/scheduler.js';
import { createQueueControl, type PausedState } from '../scheduler/queue-control.js';
import { queueControlState } from './queue-handlers.js';
import { createInstanceHealth } from '../scheduler/instance-health.js';
import type { JobProgressEvent } from '../../shared/contract.js';
import { defaultProviders } from './default-providers.js';
import { createEventBus, createSignal } from '../base/events.js';
import { createDisposableStore } from '../base/disposables.js';
import { createHandlers } from './handlers.js';
import type { EngineCandidate } from './discovery/candidates.js';
import { runHousekeeping } from './housekeeping.js';
import { mediaResolver } from './resolve-media.js';
import { createJobMedia } from './job-media.js';
import { createJobInputs } from './job-inputs.js';
import { createOriginalReader } from '../library/originals/original-reader.js';
import { holdMetadataReaders, readMetadataOffThread } from '../library/readers/off-thread.js';
import { READER_VERSION } from '../library/readers/reader-version.js';
import { createRereader } from '../library/reread/rereader.js';
import { imageSourceOf } from '../library/originals/image-source.js';
import { createModelCache } from './model-cache.js';
import { connectionOf, createProviderOutcomes, trackJobOutcomes } from './provider-outcomes.js';
import { createRetention } from './retention.js';
import { createProviderRegistry, type ProviderEntry } from './provider-registry.js';
import { redactingLog } from './redacting-log.js';
import { createSettingsService, type ProviderDefaults } from './settings-service.js';
import { createSpendGate, type SpendGate } from '../spend/spend-gate.js';
import { capOf } from '../spend/spend-settings.js';
import { systemClock } from '../base/clock.js';
import { type Logger } from '../base/logger.js';
import { type Engine, type EngineOptions } from './types.js';

const HOUR = 60 * 60 * 1000;
/** Where the person's queue pauses are kept (the store's settings table). */
const QUEUE_PAUSE_KEY = 'queue.paused';

/** What tests change and production never does: fakes, fault injection, shorter timings. */
export interface EngineTestSeams {
  /** Replaces the default provider set (tests use fakes on loopback). */
  providers?: ProviderEntry[] | undefined;
  retry?: RetryPolicy;
  maxResponseBytes?: number;
  /** Orphan files younger than this survive the start-up orphan collection. */
  orphanGraceMs?: number;
  /** Delay before the start-up orphan collection and missing-file check (default 3 s); 0 runs them at once. */
  housekeepingDelayMs?: number;
  /** How long past a provider's timeout the scheduler waits before aborting it itself. */
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
  /** Hands tests the spend gate jobs are admitted through. */
  spendGate?: (gate: SpendGate) => void;
  /** Where engines.find looks (loopback ports of fakes) instead of the usual engine ports. */
  engineCandidates?: readonly EngineCandidate[];
}

const silentLog: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The composition root: one engine per data dir, shared by the Electron app and the headless host. Services are
 * made in order, each registered with the disposable store as it is made, and closed in reverse on close().
 * Services that need each other are joined after both exist (signals, instances.connect), never before.
 */
export async function createEngine(options: EngineOptions, seams: EngineTestSeams = {}): Promise<Engine> {
  const clock = options.clock ?? systemClock;
  const secrets = options.secrets ?? createSecretBook();
  const log = redactingLog(options.log ?? silentLog, secrets);
  const { dataDir, keyring } = options;
  const disposables = createDisposableStore(log);
  let closeGraceMs = 3_000;
  let startClosing!: () => void;
  const closing = new Promise<void>((resolve) => (startClosing = resolve));

  const store: JobStore = openStore({
    dataDir,
    now: () => clock.now(),
    onSlowQuery: (name, ms) => log.warn('slow query', { name, ms: Math.round(ms) }),
    ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
    ...(seams.wrapDatabase === undefined ? {} : { wrapDatabase: seams.wrapDatabase }),
  });
  disposables.add('store', async () => {
    await store
      .backupIfChanged()
      .catch((error: unknown) => log.warn('could not back up the library on quit', { error: String(error) }));
    store.close();
  });
  try {
    // Warm the history page's statements and pages so the window's first request is not the cold one.
    store.list({ limit: 60, view: 'active' });
    const recovered = store.recoverInterrupted();
    const interrupted = store.info.recoveredInterrupted + recovered.interrupted;
    const resumed = store.info.recoveredResumed + recovered.resumed;
    if (interrupted > 0) log.warn('jobs interrupted by the last shutdown', { count: interrupted });
    if (resumed > 0) log.info('accepted jobs to collect after the last shutdown', { count: resumed });

    const bus = createEventBus(log);
    const entries = seams.providers ?? defaultProviders();
    const providerDefaults: ProviderDefaults = {};
    for (const entry of entries) {
      providerDefaults[entry.provider.id] = { ...entry.defaults, ...options.providerDefaults?.[entry.provider.id] };
    }
    const settings = createSettingsService({ store, keyring, dataDir, providerDefaults });
    const models = createModelCache(store, { clock });
    const outcomes = createProviderOutcomes(store);
    const instances = createInstanceHealth({
      clock,
      connection: (id) => connectionOf(settings.provider(id)),
      ...(seams.probeBackoff === undefined ? {} : { backoff: seams.probeBackoff }),
    });
    const registry = createProviderRegistry(entries, settings, {
      secrets,
      models,
      instanceHealth: instances,
      ...(seams.maxResponseBytes === undefined ? {} : { maxResponseBytes: seams.maxResponseBytes }),
      outcomes,
      now: () => clock.now(),
    });
    disposables.add('provider registry', () => registry.close());
    disposables.add('providers', async () => {
      for (const entry of entries) await entry.close?.();
    });
    trackJobOutcomes({ events: bus, outcomes, registry, settings, log });
    // Paid jobs are admitted against their provider's monthly cap and their cost recorded (electron/spend/).
    const spendCaps = {
      prices: () => settings.current().spend.prices,
      capOf: (id: string) => capOf(settings.current().spend, id),
    };
    const spend = createSpendGate({
      costs: store.costs,
      clock,
      ...spendCaps,
      nameOf: (id) => registry.instances().find((i) => i.id === id)?.name ?? id,
    });
    seams.spendGate?.(spend);
    const media = createJobMedia(dataDir, seams.mediaFs);
    // Imported files' settings are read on these threads, within a time limit, never on this event loop.
    const metadataReaders = holdMetadataReaders();
    disposables.add('metadata readers', () => metadataReaders.release());
    // Every read of a file Atelier did not write goes through this one guarded reader (and its memory budget).
    const originals = createOriginalReader();
    disposables.add('original reader', () => originals.close());
    const inputs = createJobInputs(dataDir, store, originals);
    const throttle = createProgressThrottle<JobProgressEvent>((_, event) => bus.emit('jobs.progress', event));
    // An API's own in-flight limit (BFL: 24 tasks per key) bounds each instance, whatever its setting says.
    const maxConcurrency = new Map(
      entries.flatMap((e) => (e.maxConcurrency === undefined ? [] : [[e.provider.id, e.maxConcurrency] as const])),
    );
    const instanceLimit = (id: string): number =>
      Math.min(settings.provider(id)?.concurrency ?? 1, maxConcurrency.get(registry.kindOf(id) ?? id) ?? Infinity);
    const queueInstances = () =>
      registry.instances().map((i) => ({
        id: i.id,
        concurrency: instanceLimit(i.id),
        perMinute: settings.provider(i.id)?.perMinute,
      }));
    // Pauses are the person's and outlive a restart; holds (back-off, per-minute, spend cap) are announced as they change.
    const control = createQueueControl({
      clock,
      load: () => store.getSetting<PausedState>(QUEUE_PAUSE_KEY),
      save: (state) => store.setSetting(QUEUE_PAUSE_KEY, state),
      perMinute: (id) => settings.provider(id)?.perMinute,
      capHold: (id) => spend.pausedByCap(id),
      onChange: () => {
        scheduler.kick();
        bus.emit('queue.control', queueControlState({ store, control, instances: queueInstances }));
      },
    });
    disposables.add('queue control', () => control.close());
    const scheduler = createScheduler({
      control,
      admit: (jobId, instance, kind, request) => spend.admit(jobId, instance, kind, request),
      onHeld: () => bus.emit('queue.control', queueControlState({ store, control, instances: queueInstances })),
      spend,
      store,
      providers: registry,
      media,
      inputs,
      bus,
      throttle,
      clock,
      log,
      retry: seams.retry ?? DEFAULT_RETRY_POLICY,
      hardTimeoutGraceMs: seams.hardTimeoutGraceMs ?? 5_000,
      instances,
      models,
      limits: () => ({
        global: settings.current().concurrency.global,
        perProvider: instanceLimit,
        waitMs: (id) => settings.provider(id)?.timeoutMs ?? 60_000,
      }),
    });
    disposables.add('scheduler', () => scheduler.stop(closeGraceMs));
    // The probe is the registry's connection test, which reports back to the tracker; the scheduler acts on it.
    instances.connect({ probe: (id) => registry.test(id), onChange: () => scheduler.kick() });

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
    const announceOrLog = (what: string) => (ids: string[]) => {
      announce(ids).catch((error: unknown) => log.error(`could not announce ${what}`, { error: String(error) }));
    };

    let housekeepingDone: Promise<void> = Promise.resolve();
    let collectionStarted = false;
    const recovery = createLibraryRecovery({
      dataDir,
      store,
      log,
      now: () => clock.now(),
      announce: announceOrLog('rebuilt jobs'),
      collectionDone: () => (collectionStarted ? housekeepingDone : Promise.resolve()),
    });

    // The importer feeds the thumbnailer and the folder sync, which are made after it: joined by these signals.
    const imported = createSignal<[ids: string[]]>();
    const folderWatched = createSignal<[folderId: string]>();
    const folderImported = createSignal<[folderId: string]>();
    const importer = createImporter({
      dataDir,
      store,
      bus,
      log,
      reader: originals,
      now: () => clock.now(),
      readOptions: () => ({ comfyNodeRules: settings.current().library.comfyNodeRules }),
      announce: (ids) => imported.emit(ids),
      onWatchedFolder: (id) => folderWatched.emit(id),
      onWatchedFolderImported: (id) => folderImported.emit(id),
      ...(seams.wrapImportRead === undefined ? {} : { wrapRead: seams.wrapImportRead }),
    });

    // Hashes feed the similar index, which hashes on demand through them: joined by a signal.
    const hashed = createSignal<[imageId: string, hash: string]>();
    const hashes = createHashBackfill({
      dataDir,
      store,
      log,
      reader: originals,
      busy: () => importer.busy(),
      record: (id, hash) => hashed.emit(id, hash),
    });
    disposables.add('hash backfill', () => hashes.close());
    const similar = createSimilarIndex({
      store,
      hashNow: (id) => hashes.hashOne(id),
      colourOf: (id) => hashes.colourOne(id),
    });
    hashed.on((id, hash) => similar.record(id, hash));
    // Deleted rows may give their rowids out again: the index reads them as new.
    bus.on('jobs.removed', () => similar.removed());

    const sidecars = createSidecarWriter({ store, log, enabled: () => settings.current().library.xmpSidecars });
    disposables.add('XMP sidecars', () => sidecars.idle());
    const thumbnailer = createThumbnailer({
      dataDir,
      store,
      log,
      reader: originals,
      busy: () => importer.busy(),
      recordHash: (id, hash) => similar.record(id, hash),
      announce: announceOrLog('thumbnails'),
    });
    disposables.add('thumbnailer', () => thumbnailer.close());
    imported.on((ids) => {
      if (ids.length === 0) return;
      announceOrLog('imported jobs')(ids);
      thumbnailer.kick();
    });
    // Closed after the folder sync, before the thumbnailer and the hashes it feeds.
    disposables.add('importer', () => importer.close());

    const rereader = createRereader({
      dataDir,
      store,
      log,
      reader: originals,
      metadata: readMetadataOffThread,
      version: READER_VERSION,
      readOptions: () => ({ comfyNodeRules: settings.current().library.comfyNodeRules }),
      busy: () => importer.busy(),
      idle: () => importer.idle(),
      onProgress: (progress) => bus.emit('library.rereadProgress', progress),
      announce: (ids) => {
        if (ids.length > 0) announceOrLog('re-read jobs')(ids);
      },
    });
    // Closed before the importer it waits on and the readers it reads through.
    disposables.add('re-reader', () => rereader.close());

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
          ...(seams.watchSettleMs === undefined ? {} : { settleMs: seams.watchSettleMs }),
        }),
    });
    disposables.add('folder sync', () => sync.close());
    folderWatched.on((id) => sync.watch(id));
    folderImported.on((id) => void sync.checkpoint(id));
    const folders = createLibraryFolders({
      store,
      watchState: (id) => sync.watchState(id),
      unwatch: (id) => sync.unwatch(id),
      setWatch: (id, on) => sync.setWatch(id, on),
    });

    // Leftover previews go before the scheduler starts (afterwards their folders are live). The orphan collection and
    // the missing-file check stat every file, so they wait until the window has its first page and run in the
    // background; files younger than the grace period (a job that is committing) are never taken.
    let housekeepingTimer: ReturnType<typeof setTimeout> | undefined;
    const startup = removePreviewFolders(dataDir)
      .catch((error: unknown) => log.error('could not clear old previews', { error: String(error) }))
      .finally(() => {
        scheduler.start();
        importer.resumeInterrupted();
        thumbnailer.kick();
        sync.start().catch((error: unknown) => log.error('could not start watching folders', { error: String(error) }));
        const run = (): void => {
          collectionStarted = true;
          // Old images get their hashes once the window has its first page, like the other start-up passes.
          hashes.start();
          // Files older readers read (after an upgrade) are read again, in the background.
          rereader.start();
          housekeepingDone = runHousekeeping({
            dataDir,
            store,
            importer,
            recovery,
            log,
            now: () => clock.now(),
            maintain,
            closing,
            setMissing: (count) => (missing = count),
            ...(seams.orphanGraceMs === undefined ? {} : { orphanGraceMs: seams.orphanGraceMs }),
          }).catch((error: unknown) => log.error('start-up housekeeping failed', { error: String(error) }));
        };
        const delay = seams.housekeepingDelayMs ?? 3_000;
        if (delay <= 0) run();
        else housekeepingTimer = setTimeout(run, delay);
        housekeepingTimer?.unref();
      });
    disposables.add('start-up passes', async () => {
      await startup;
      clearTimeout(housekeepingTimer);
      await housekeepingDone;
    });

    const interval = seams.maintenanceIntervalMs ?? HOUR;
    const timer =
      interval > 0
        ? setInterval(() => {
            maintain().catch((error: unknown) => log.error('maintenance failed', { error: String(error) }));
          }, interval)
        : undefined;
    timer?.unref();
    disposables.add('maintenance timer', () => clearInterval(timer));

    const exporter = createExporter({
      dataDir,
      store,
      bus,
      log,
      reader: originals,
      now: () => clock.now(),
      resolveOriginal: (id) => imageSourceOf(dataDir, store, id),
    });
    disposables.add('exporter', () => exporter.close());

    // The counts that follow a query read on their own thread and connection, never holding this one.
    const counts = createCountPool({
      path: join(dataDir, DATABASE_FILE),
      ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
    });
    disposables.add('counts', () => counts.close());

    const handlers = createHandlers({
      counts,
      queue: { control, instances: queueInstances },
      spend: {
        costs: store.costs,
        gate: spend,
        clock,
        ...spendCaps,
        instances: () =>
          registry.instances().map((i) => {
            const own = settings.provider(i.id);
            return { ...i, enabled: registry.placeable(i.id), model: own?.model };
          }),
      },
      exporter,
      rereader,
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
      originals,
      dataDir,
      log,
      engineCandidates: seams.engineCandidates,
    });

    return {
      dataDir,
      handlers,
      events: bus,
      resolveMedia: mediaResolver(dataDir, store, media),
      exportDownload: (id) => exporter.download(id),
      close(closeOptions = {}) {
        closeGraceMs = closeOptions.graceMs ?? closeGraceMs;
        startClosing();
        return disposables.close();
      },
    };
  } catch (error) {
    await disposables.close();
    throw error;
  }
}
