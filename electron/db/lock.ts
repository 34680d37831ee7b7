import Database from 'better-sqlite3';
import { AppError } from '../../shared/errors.js';
import { assertRegularFileOrMissing } from './connection.js';

export interface LibraryLock {
  release(): void;
}

/**
 * One Atelier process per library: `atelier.lock` is its own SQLite file held in `BEGIN EXCLUSIVE` for the store's
 * lifetime. The OS drops the lock when the process dies, so a crash never leaves a stale lock behind.
 */
export function acquireLibraryLock(lockPath: string, dataDir: string, nativeBinding?: string): LibraryLock {
  assertRegularFileOrMissing(lockPath, 'library lock');
  const db = new Database(lockPath, nativeBinding === undefined ? {} : { nativeBinding });
  try {
    db.pragma('busy_timeout = 0');
    // Rollback journal, not WAL: EXCLUSIVE then really excludes every other connection, readers included.
    db.pragma('journal_mode = DELETE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL) STRICT');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      throw new AppError(
        'storage',
        `Another Atelier is already using the library in ${dataDir}. Close it first, or choose another data folder.`,
        { details: { dataDir, reason: 'library_locked' } },
      );
    }
    throw new AppError('storage', `Atelier could not lock its library in ${dataDir}.`, { cause: error });
  }
  db.prepare('DELETE FROM holder').run();
  db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      try {
        db.exec('ROLLBACK');
      } finally {
        db.close();
      }
    },
  };
}
