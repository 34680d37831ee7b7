import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AppError } from '../../shared/errors.js';
import { CLEAN_CLOSE_FILE, recordCleanClose, takeCleanClose } from './clean-close.js';
import { openDatabase, probeWritable, quickCheck, type Db } from './connection.js';
import { DEFAULT_LIMITS, type StoreContext } from './context.js';
import { createEvents } from './events.js';
import { createImages } from './images.js';
import { createImports } from './imports.js';
import { createJobs } from './jobs.js';
import { createTrash } from './trash.js';
import { createRecovered } from './recovered.js';
import { acquireLibraryLock, type LibraryLock } from './lock.js';
import { backupDatabase } from './backups.js';
import { watchLibraryPresence, type LibraryPresence } from './data-dir-presence.js';
import { createStoreGuard, type Access } from './guard.js';
import { explainOpenFailure } from './open-failure.js';
import { asStorageError } from '../base/storage-fault.js';
import { migrate } from './migrations/runner.js';
import { createXmpSidecars } from './xmp-sidecars.js';
import { createCurationStore } from './curation-store.js';
import { createAnnotationStore } from './annotations-store.js';
import {
  DEFAULT_DENSE_SEARCH_THRESHOLD,
  DEFAULT_SEARCH_WALK_BUDGET,
  createSearch,
  type SearchTuning,
} from './search.js';
import { createSettings } from './settings.js';
import { createPresets } from './presets.js';
import { createPromptHistory } from './prompt-history.js';
import { createSimilar } from './similar.js';
import { createRereads } from './rereads.js';
import { createQueue } from './queue.js';
import { createMasks } from './masks.js';
import { createCosts } from './costs.js';
import { createSweeps } from './sweeps.js';
import { createModelNotes } from './model-notes.js';
import { createModelUsage } from './model-usage.js';
import { DEFAULT_SLOW_QUERY_MS, Statements, defaultClock } from './statements.js';
import { createStats } from './stats.js';
import type { JobReads, JobStore, JobWrites, StoreOptions } from './types.js';

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
      recoveredInterrupted: recovered.interrupted,
      recoveredResumed: recovered.resumed,
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
  const annotations = createAnnotationStore(ctx);
  let open = true;
  const changes = ctx.db.prepare('SELECT total_changes() AS n').pluck();
  let changesAtOpen: number | null = null;
  const guard = createStoreGuard(() => open, presence, dataDir);
  // The root store's functions, typed by JobReads / JobWrites: one missing from either is a compile error.
  const root: Access<JobReads, JobWrites> = {
    reads: {
      ...jobs.reads,
      // A job's detail carries its corrections and notes beside what its file says.
      get: (id) => annotations.reads.annotate(jobs.reads.get(id)),
      list: search.list,
      ...trash.reads,
      ...stats.reads,
      image: images.get,
      imagePathsPage: images.pathsPage,
      ...settings.reads,
    },
    writes: {
      ...jobs.writes,
      // One request's failure inside a group commit is that request's answer, in the same storage words as submit's.
      submitMany: (requests) =>
        jobs.writes
          .submitMany(requests)
          .map((o) =>
            o.ok ? o : { ok: false as const, error: asStorageError(o.error, dataDir, 'store the new job') },
          ),
      appendEvent: (jobId, kind, message, data) => events.appendChecked(jobId, kind, message, data),
      ...trash.writes,
      ...recovered.writes,
      ...settings.writes,
    },
  };
  return {
    ...guard.compose(root, undefined, { submit: 'store the new job', submitMany: 'store the new job' }),
    imports: guard.compose(createImports(ctx, images, events), 'record the import'),
    curation: guard.compose(createCurationStore(ctx, search.compile, searchTuning.countCap)),
    annotations: guard.compose(annotations, 'save the correction', { setNote: 'save the note' }),
    xmp: guard.compose(createXmpSidecars(ctx), 'record the sidecar'),
    similar: guard.compose(createSimilar(ctx, images), 'record the image hash'),
    rereads: guard.compose(createRereads(ctx), 'record the re-read settings'),
    queue: guard.compose(createQueue(ctx, images, events), 'change the queue'),
    masks: guard.compose(createMasks(ctx), 'save the mask'),
    presets: guard.compose(createPresets(ctx)),
    prompts: guard.compose(createPromptHistory(ctx)),
    costs: guard.compose(createCosts(ctx), 'record what the job cost'),
    modelNotes: guard.compose(createModelNotes(ctx), 'save the note'),
    modelUsage: guard.compose(createModelUsage(ctx)),
    sweeps: guard.compose(createSweeps(ctx, images), 'record the sweep'),
    info: {
      databasePath: '',
      migratedFrom: 0,
      schemaVersion: 0,
      backupPath: null,
      recoveredInterrupted: 0,
      recoveredResumed: 0,
      integrityChecked: true,
    },
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
