import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AppError } from '../../shared/errors.js';
import { CLEAN_CLOSE_FILE, recordCleanClose, takeCleanClose } from './clean-close.js';
import { openDatabase, probeWritable, quickCheck, type Db } from './connection.js';
import { DEFAULT_LIMITS, type StoreContext } from './context.js';
import { createEvents } from './events.js';
import { createImages } from './images.js';
import { createImports } from './imports.js';
import type { ImportStore } from './import-types.js';
import { createJobs } from './jobs.js';
import { createTrash } from './trash.js';
import { createRecovered } from './recovered.js';
import { acquireLibraryLock, type LibraryLock } from './lock.js';
import { backupDatabase } from './backups.js';
import { watchLibraryPresence, type LibraryPresence } from './data-dir-presence.js';
import { explainOpenFailure } from './open-failure.js';
import { asStorageError } from '../base/storage-fault.js';
import { migrate } from './migrations/runner.js';
import { createXmpSidecars, type XmpSidecarStore } from './xmp-sidecars.js';
import { CURATION_READS, createCurationStore, type CurationStore } from './curation-store.js';
import {
  DEFAULT_DENSE_SEARCH_THRESHOLD,
  DEFAULT_SEARCH_WALK_BUDGET,
  createSearch,
  type SearchTuning,
} from './search.js';
import { createSettings } from './settings.js';
import { PRESET_READS, createPresets, type PresetStore } from './presets.js';
import { PROMPT_HISTORY_READS, createPromptHistory, type PromptHistoryStore } from './prompt-history.js';
import { createSimilar, type SimilarStore } from './similar.js';
import { createMasks, type MaskStore } from './masks.js';
import { DEFAULT_SLOW_QUERY_MS, Statements, defaultClock } from './statements.js';
import { createStats } from './stats.js';
import type { JobStore, StoreOptions } from './types.js';

export const DATABASE_FILE = 'atelier.db';
export const LOCK_FILE = 'atelier.lock';

/**
 * Opens (creating if needed) the library in `dataDir`: takes the library lock, checks and migrates the database,
 * turns jobs left running by a crash into `interrupted`, and returns the store.
 */
export function openStore(options: StoreOptions): JobStore {
  const dataDir = resolve(options.dataDir);
  try {
    return openStoreIn(dataDir, options);
  } catch (error) {
    throw explainOpenFailure(error, dataDir);
  }
}

/** A recursive mkdir reports a read-only disk as ENOENT; creating the first missing folder alone tells the truth. */
function mkdirCause(dataDir: string, error: unknown): unknown {
  let child = dataDir;
  while (!existsSync(dirname(child)) && dirname(child) !== child) child = dirname(child);
  try {
    mkdirSync(child);
  } catch (real) {
    return real;
  }
  return error;
}

function openStoreIn(dataDir: string, options: StoreOptions): JobStore {
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw new AppError('storage', `Atelier could not create its data folder ${dataDir}.`, {
      cause: mkdirCause(dataDir, error),
    });
  }
  const databasePath = join(dataDir, DATABASE_FILE);
  const lock: LibraryLock = acquireLibraryLock(join(dataDir, LOCK_FILE), dataDir, options.nativeBinding);
  let db: Db | null = null;
  try {
    db = openDatabase(
      databasePath,
      options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding },
    );
    if (options.wrapDatabase !== undefined) db = options.wrapDatabase(db);
    const cleanMarker = join(dataDir, CLEAN_CLOSE_FILE);
    const checked = !takeCleanClose(cleanMarker, databasePath);
    if (checked) quickCheck(db, databasePath);
    const now = options.now ?? Date.now;
    const migration = migrate(db, dataDir, now);
    probeWritable(db);
    const ctx: StoreContext = {
      db,
      now,
      limits: { ...DEFAULT_LIMITS, ...options.limits },
      sql: new Statements(db, {
        thresholdMs: options.slowQueryMs ?? DEFAULT_SLOW_QUERY_MS,
        onSlow: options.onSlowQuery ?? (() => {}),
        clock: options.timer ?? defaultClock,
      }),
    };
    const presence = watchLibraryPresence(dataDir, databasePath);
    const store = composeStore(ctx, lock, presence, dataDir, () => recordCleanClose(cleanMarker, databasePath), {
      walkBudget: Math.max(0, Math.trunc(options.searchWalkBudget ?? DEFAULT_SEARCH_WALK_BUDGET)),
      denseThreshold: Math.max(0, Math.trunc(options.denseSearchThreshold ?? DEFAULT_DENSE_SEARCH_THRESHOLD)),
      ...(options.browseSortMax !== undefined && { sortMax: Math.trunc(options.browseSortMax) }),
      ...(options.countCap !== undefined && { countCap: Math.max(1, Math.trunc(options.countCap)) }),
    });
    const recovered = store.recoverInterrupted();
    store.markOpened();
    Object.assign(store.info, {
      databasePath,
      migratedFrom: migration.from,
      schemaVersion: migration.to,
      backupPath: migration.backupPath,
      recoveredInterrupted: recovered,
      integrityChecked: checked,
    });
    return store;
  } catch (error) {
    db?.close();
    lock.release();
    throw error;
  }
}

function composeStore(
  ctx: StoreContext,
  lock: LibraryLock,
  presence: LibraryPresence,
  dataDir: string,
  afterClose: () => void,
  searchTuning: SearchTuning,
): JobStore & { markOpened(): void } {
  const events = createEvents(ctx);
  const images = createImages(ctx);
  const jobs = createJobs(ctx, images, events);
  const search = createSearch(ctx, images, searchTuning);
  const trash = createTrash(ctx);
  const recovered = createRecovered(ctx, images, events);
  const stats = createStats(ctx);
  const settings = createSettings(ctx);
  const importsRaw = createImports(ctx, images, events);
  const curationRaw = createCurationStore(ctx, search.compile, searchTuning.countCap);
  const xmpRaw = createXmpSidecars(ctx);
  const similarRaw = createSimilar(ctx, images);
  const masksRaw = createMasks(ctx);
  const presetsRaw = createPresets(ctx);
  const promptsRaw = createPromptHistory(ctx);
  let open = true;
  const changes = ctx.db.prepare('SELECT total_changes() AS n').pluck();
  let changesAtOpen: number | null = null;
  const call = <A extends unknown[], R>(fn: (...args: A) => R, args: A, action: string): R => {
    if (!open) throw new AppError('storage', 'The job store is closed.');
    try {
      return fn(...args);
    } catch (error) {
      throw asStorageError(error, dataDir, action);
    }
  };
  // Writes first check the library is still where it was opened (never answer ok into an unlinked file).
  const guard = <A extends unknown[], R>(fn: (...args: A) => R, action = 'save this change') => {
    return (...args: A): R => {
      if (open) presence.assertHere();
      return call(fn, args, action);
    };
  };
  // Reads come from the open file, which stays readable even while its folder is gone.
  const read = <A extends unknown[], R>(fn: (...args: A) => R) => {
    return (...args: A): R => call(fn, args, 'read the library');
  };
  const IMPORT_READS = new Set<keyof ImportStore>([
    'get',
    'list',
    'running',
    'problems',
    'folder',
    'folders',
    'folderList',
    'pending',
    'location',
    'imageBySha',
    'locationsIn',
    'original',
    'thumbless',
  ]);
  const imports = Object.fromEntries(
    Object.entries(importsRaw).map(([name, fn]) => [
      name,
      IMPORT_READS.has(name as keyof ImportStore)
        ? read(fn as (...a: unknown[]) => unknown)
        : guard(fn as (...a: unknown[]) => unknown, 'record the import'),
    ]),
  ) as unknown as ImportStore;
  const curation = Object.fromEntries(
    Object.entries(curationRaw).map(([name, fn]) => [
      name,
      CURATION_READS.has(name as keyof CurationStore)
        ? read(fn as (...a: unknown[]) => unknown)
        : guard(fn as (...a: unknown[]) => unknown, 'save this change'),
    ]),
  ) as unknown as CurationStore;
  const xmp: XmpSidecarStore = {
    target: read(xmpRaw.target),
    written: read(xmpRaw.written),
    record: guard(xmpRaw.record, 'record the sidecar'),
  };
  const similar = Object.fromEntries(
    Object.entries(similarRaw).map(([name, fn]) => [
      name,
      name === 'setHash'
        ? guard(fn as (...a: unknown[]) => unknown, 'record the image hash')
        : read(fn as (...a: unknown[]) => unknown),
    ]),
  ) as unknown as SimilarStore;
  const masks: MaskStore = { insert: guard(masksRaw.insert, 'save the mask'), get: read(masksRaw.get) };
  const guarded = <S extends object>(raw: S, reads: ReadonlySet<keyof S>): S =>
    Object.fromEntries(
      Object.entries(raw).map(([name, fn]) => [
        name,
        reads.has(name as keyof S)
          ? read(fn as (...a: unknown[]) => unknown)
          : guard(fn as (...a: unknown[]) => unknown),
      ]),
    ) as S;
  return {
    imports,
    curation,
    xmp,
    similar,
    masks,
    presets: guarded<PresetStore>(presetsRaw, PRESET_READS),
    prompts: guarded<PromptHistoryStore>(promptsRaw, PROMPT_HISTORY_READS),
    info: {
      databasePath: '',
      migratedFrom: 0,
      schemaVersion: 0,
      backupPath: null,
      recoveredInterrupted: 0,
      integrityChecked: true,
    },
    submit: guard(jobs.submit, 'store the new job'),
    // One request's failure inside a group commit is that request's answer, in the same storage words as submit's.
    submitMany: guard(
      (requests: Parameters<typeof jobs.submitMany>[0]) =>
        jobs
          .submitMany(requests)
          .map((o) =>
            o.ok ? o : { ok: false as const, error: asStorageError(o.error, dataDir, 'store the new job') },
          ),
      'store the new job',
    ),
    get: read(jobs.get),
    getSummary: read(jobs.getSummary),
    list: read(search.list),
    claim: guard(jobs.claim),
    requeue: guard(jobs.requeue),
    moveQueued: guard(jobs.moveQueued),
    queued: read(jobs.queued),
    setProgress: guard(jobs.setProgress),
    succeed: guard(jobs.succeed),
    fail: guard(jobs.fail),
    markCancelled: guard(jobs.markCancelled),
    requestCancel: guard(jobs.requestCancel),
    recoverInterrupted: guard(jobs.recoverInterrupted),
    linkRetry: guard(jobs.linkRetry),
    appendEvent: guard((jobId: string, kind: string, message: string, data?: Record<string, unknown>) =>
      events.appendChecked(jobId, kind, message, data),
    ),
    setFavorite: guard(trash.setFavorite),
    trash: guard(trash.trash),
    restore: guard(trash.restore),
    purge: guard(trash.purge),
    emptyTrash: guard(trash.emptyTrash),
    prune: guard(trash.prune),
    previewPrune: read(trash.previewPrune),
    trashSummary: read(trash.trashSummary),
    restoreFromFiles: guard(recovered.restoreFromFiles),
    emptyTrashOlderThan: guard(trash.emptyTrashOlderThan),
    stats: read(stats.stats),
    image: read(images.get),
    imagePathsPage: read(images.pathsPage),
    getSetting: read(settings.getSetting) as JobStore['getSetting'],
    setSetting: guard(settings.setSetting),
    async backupIfChanged() {
      if (!open || presence.check() !== 'here') return null;
      if ((changes.get() as number) === (changesAtOpen ?? 0)) return null;
      return backupDatabase(ctx.db, dataDir, ctx.now());
    },
    markOpened() {
      changesAtOpen = changes.get() as number;
    },
    close() {
      if (!open) return;
      open = false;
      const here = presence.check() === 'here';
      try {
        // Refreshes planner statistics for the indexes the history page relies on; cheap when nothing changed.
        if (here) ctx.db.pragma('optimize');
      } catch {
        // A disk that just filled up: the statistics wait for the next close.
      } finally {
        try {
          ctx.db.close();
          // Still under the lock, only once the close succeeded, and never onto a folder that replaced ours.
          if (here) afterClose();
        } finally {
          lock.release();
        }
      }
    },
  };
}
