import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppError } from '../../shared/errors.js';
import { CLEAN_CLOSE_FILE, recordCleanClose, takeCleanClose } from './clean-close.js';
import { openDatabase, quickCheck, type Db } from './connection.js';
import { DEFAULT_LIMITS, type StoreContext } from './context.js';
import { createEvents } from './events.js';
import { createImages } from './images.js';
import { createJobs } from './jobs.js';
import { createLibrary } from './library.js';
import { acquireLibraryLock, type LibraryLock } from './lock.js';
import { migrate } from './migrations/runner.js';
import { DEFAULT_DENSE_SEARCH_THRESHOLD, DEFAULT_SEARCH_WALK_BUDGET, createSearch, type SearchTuning } from './search.js';
import { createSettings } from './settings.js';
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
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw new AppError('storage', `Atelier could not create its data folder ${dataDir}.`, { cause: error });
  }
  const databasePath = join(dataDir, DATABASE_FILE);
  const lock: LibraryLock = acquireLibraryLock(join(dataDir, LOCK_FILE), dataDir, options.nativeBinding);
  let db: Db | null = null;
  try {
    db = openDatabase(databasePath, options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding });
    const cleanMarker = join(dataDir, CLEAN_CLOSE_FILE);
    const checked = !takeCleanClose(cleanMarker, databasePath);
    if (checked) quickCheck(db, databasePath);
    const now = options.now ?? Date.now;
    const migration = migrate(db, dataDir, now);
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
    const store = composeStore(ctx, lock, () => recordCleanClose(cleanMarker, databasePath), {
      walkBudget: Math.max(0, Math.trunc(options.searchWalkBudget ?? DEFAULT_SEARCH_WALK_BUDGET)),
      denseThreshold: Math.max(0, Math.trunc(options.denseSearchThreshold ?? DEFAULT_DENSE_SEARCH_THRESHOLD)),
    });
    const recovered = store.recoverInterrupted();
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

function composeStore(ctx: StoreContext, lock: LibraryLock, afterClose: () => void, searchTuning: SearchTuning): JobStore {
  const events = createEvents(ctx);
  const images = createImages(ctx);
  const jobs = createJobs(ctx, images, events);
  const search = createSearch(ctx, images, searchTuning);
  const library = createLibrary(ctx);
  const stats = createStats(ctx);
  const settings = createSettings(ctx);
  let open = true;
  const guard = <A extends unknown[], R>(fn: (...args: A) => R) => {
    return (...args: A): R => {
      if (!open) throw new AppError('storage', 'The job store is closed.');
      return fn(...args);
    };
  };
  return {
    info: { databasePath: '', migratedFrom: 0, schemaVersion: 0, backupPath: null, recoveredInterrupted: 0, integrityChecked: true },
    submit: guard(jobs.submit),
    submitMany: guard(jobs.submitMany),
    get: guard(jobs.get),
    getSummary: guard(jobs.getSummary),
    list: guard(search.list),
    claim: guard(jobs.claim),
    queued: guard(jobs.queued),
    setProgress: guard(jobs.setProgress),
    succeed: guard(jobs.succeed),
    fail: guard(jobs.fail),
    markCancelled: guard(jobs.markCancelled),
    requestCancel: guard(jobs.requestCancel),
    recoverInterrupted: guard(jobs.recoverInterrupted),
    appendEvent: guard((jobId: string, kind: string, message: string, data?: Record<string, unknown>) =>
      events.appendChecked(jobId, kind, message, data),
    ),
    setFavorite: guard(library.setFavorite),
    trash: guard(library.trash),
    restore: guard(library.restore),
    purge: guard(library.purge),
    emptyTrash: guard(library.emptyTrash),
    prune: guard(library.prune),
    emptyTrashOlderThan: guard(library.emptyTrashOlderThan),
    stats: guard(stats.stats),
    image: guard(images.get),
    imagePathsPage: guard(images.pathsPage),
    getSetting: guard(settings.getSetting) as JobStore['getSetting'],
    setSetting: guard(settings.setSetting),
    close() {
      if (!open) return;
      open = false;
      try {
        // Refreshes planner statistics for the indexes the history page relies on; cheap when nothing changed.
        ctx.db.pragma('optimize');
      } finally {
        try {
          ctx.db.close();
          // Still under the lock, and only once the close succeeded.
          afterClose();
        } finally {
          lock.release();
        }
      }
    },
  };
}
