import { renameSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { AppError } from '../../shared/errors.js';
import { assertRegularFileOrMissing } from './connection.js';
import { createHolderRecords, type Holder } from './lock-holders.js';

export interface LibraryLock {
  release(): void;
}

type Attempt = { lock: LibraryLock } | { busy: true } | { damaged: unknown };

function take(lockPath: string, nativeBinding: string | undefined): Attempt {
  let db: Database.Database;
  try {
    db = new Database(lockPath, nativeBinding === undefined ? {} : { nativeBinding });
  } catch (error) {
    return { damaged: error };
  }
  try {
    db.pragma('busy_timeout = 0');
    // Rollback journal, not WAL: EXCLUSIVE then really excludes every other connection, readers included.
    db.pragma('journal_mode = DELETE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL) STRICT');
    db.exec('BEGIN EXCLUSIVE');
    db.prepare('DELETE FROM holder').run();
    db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
  } catch (error) {
    db.close();
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return { busy: true };
    if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT')) return { damaged: error };
    throw error;
  }
  let held = true;
  return {
    lock: {
      release() {
        if (!held) return;
        held = false;
        try {
          db.exec('ROLLBACK');
        } finally {
          db.close();
        }
      },
    },
  };
}

/** Moves a stale lock file (and any journal beside it) out of the way; the SQLite lock on it stays with the old file. */
function setAside(lockPath: string): void {
  rmSync(`${lockPath}-journal.stale`, { force: true });
  try {
    renameSync(`${lockPath}-journal`, `${lockPath}-journal.stale`);
  } catch {
    // No journal: nothing to keep from being rolled into the new lock file.
  }
  renameSync(lockPath, `${lockPath}.stale`);
}

function lockedError(dataDir: string, holders: Holder[]): AppError {
  const who = holders.length === 0 ? '' : ` (process ${holders[0]!.pid} on ${holders[0]!.host})`;
  return new AppError(
    'storage',
    `Another Atelier is already using the library in ${dataDir}${who}. Close it first, or choose another data folder.`,
    {
      details: {
        dataDir,
        reason: 'library_locked',
        ...(holders.length === 0 ? {} : { pid: holders[0]!.pid, host: holders[0]!.host }),
      },
    },
  );
}

/**
 * One Atelier process per library: `atelier.lock` is its own SQLite file held in `BEGIN EXCLUSIVE` for the store's
 * lifetime. The OS drops the lock when the process dies; when it does not (a damaged lock file, a network file
 * system) and every recorded holder is gone, the lock is taken over instead of leaving a person to delete it.
 */
export function acquireLibraryLock(lockPath: string, dataDir: string, nativeBinding?: string): LibraryLock {
  assertRegularFileOrMissing(lockPath, 'library lock');
  const records = createHolderRecords(lockPath);
  const own = records.announce();
  try {
    let attempt = take(lockPath, nativeBinding);
    if (!('lock' in attempt)) {
      const live = records.live(own);
      // Busy with no record at all: a holder from before records existed, which may well be alive.
      const stale = live.length === 0 && ('damaged' in attempt || records.others(own) > 0);
      if (!stale) throw lockedError(dataDir, live);
      setAside(lockPath);
      attempt = take(lockPath, nativeBinding);
      if ('busy' in attempt) throw lockedError(dataDir, records.live(own));
      if ('damaged' in attempt) throw attempt.damaged;
    }
    records.pruneDead(own);
    const { lock } = attempt;
    return {
      release() {
        try {
          lock.release();
        } finally {
          records.withdraw(own);
        }
      },
    };
  } catch (error) {
    records.withdraw(own);
    if (error instanceof AppError) throw error;
    throw new AppError('storage', `Atelier could not lock its library in ${dataDir}.`, { cause: error });
  }
}
