import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../shared/errors.js';
import { newestBackup } from './backups.js';
import { storageFaultOf, type StorageFault } from '../base/storage-fault.js';

const DATABASE_FILE = 'atelier.db';

/**
 * SQLite says only "unable to open" (CANTOPEN) when it may not create its journal beside the database; the folder's
 * own permissions tell a read-only or forbidden folder from a missing one.
 */
function refineByFolder(fault: StorageFault | undefined, dataDir: string): StorageFault | undefined {
  if (fault !== 'missing' && fault !== 'io') return fault;
  try {
    accessSync(dataDir, constants.W_OK);
    return fault;
  } catch (error) {
    return storageFaultOf(error) ?? fault;
  }
}

/** The first disk fault along the error's cause chain (the wrapped SQLite or errno error). */
function rootFault(error: unknown): StorageFault | undefined {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; depth += 1) {
    const fault = storageFaultOf(e);
    if (fault !== undefined) return fault;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What a person reads when the database will not open because it is damaged: the newest backup, and how. */
export function damagedMessage(dataDir: string, problem?: string): { message: string; backup: string | null } {
  const db = join(dataDir, DATABASE_FILE);
  const backup = newestBackup(dataDir);
  const head =
    `The library database (${db}) is damaged${problem === undefined ? '' : ` (${problem})`}, so Atelier did not open ` +
    'it and changed nothing; your image files are untouched.';
  if (backup === null) {
    return {
      backup: null,
      message:
        `${head} There is no backup in ${join(dataDir, 'backups')} yet. To start a new history, quit Atelier and ` +
        `move atelier.db, atelier.db-wal and atelier.db-shm out of ${dataDir}, then start Atelier again.`,
    };
  }
  const taken = new Date(backup.mtimeMs).toISOString().replace('T', ' ').slice(0, 16);
  return {
    backup: backup.path,
    message:
      `${head} The newest backup is ${join(dataDir, ...backup.path.split('/'))} (taken ${taken} UTC). To restore ` +
      `it, quit Atelier, move atelier.db, atelier.db-wal and atelier.db-shm out of ${dataDir}, copy the backup to ` +
      `${db}, then start Atelier again.`,
  };
}

const OPEN_MESSAGES: Partial<Record<StorageFault, (dir: string) => string>> = {
  read_only: (dir) =>
    `Atelier cannot write to its library folder (${dir}): the disk or folder is read-only. Make it writable (check ` +
    'that the drive is not locked or mounted read-only), or choose another data folder, then start Atelier again. ' +
    'Nothing was changed.',
  no_permission: (dir) =>
    `Atelier is not allowed to write to its library folder (${dir}). Give your user write permission on the folder ` +
    'and the files in it, or choose another data folder, then start Atelier again. Nothing was changed.',
  disk_full: (dir) =>
    `The disk holding the library (${dir}) is full, so Atelier cannot open it. Free some space, then start Atelier ` +
    'again. Nothing was changed.',
  quota: (dir) =>
    `Your disk quota is used up, so Atelier cannot open its library (${dir}). Free some space, then start Atelier ` +
    'again. Nothing was changed.',
  missing: (dir) =>
    `Atelier could not reach its library folder (${dir}). If it is on an external drive, reconnect it, then start ` +
    'Atelier again.',
  io: (dir) =>
    `The drive holding the library (${dir}) reported a read or write error. Check that it is connected and healthy, ` +
    'then start Atelier again.',
};

/**
 * A failure while opening the library, in words that say what happened and what to do. Errors that already do
 * (another Atelier holds the lock, a newer schema, a symlink) pass through unchanged.
 */
export function explainOpenFailure(error: unknown, dataDir: string): AppError {
  const details = error instanceof AppError ? error.details : undefined;
  const fault = details?.['reason'] === 'damaged' ? 'damaged' : refineByFolder(rootFault(error), dataDir);
  if (fault === 'damaged') {
    const problems = details?.['problems'];
    const problem = Array.isArray(problems) && typeof problems[0] === 'string' ? problems[0] : undefined;
    const { message, backup } = damagedMessage(dataDir, problem);
    return new AppError('storage', message, {
      retryable: false,
      details: { ...details, reason: 'damaged', dataDir, backup },
      cause: error,
    });
  }
  const explain = fault === undefined ? undefined : OPEN_MESSAGES[fault];
  if (explain !== undefined && !(error instanceof AppError && typeof details?.['reason'] === 'string')) {
    return new AppError('storage', explain(dataDir), {
      retryable: false,
      details: { reason: fault, dataDir },
      cause: error,
    });
  }
  if (error instanceof AppError) return error;
  return new AppError('storage', `Atelier could not open its library in ${dataDir}.`, {
    retryable: false,
    details: { dataDir },
    cause: error,
  });
}
