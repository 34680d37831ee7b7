import { AppError } from '../../shared/errors.js';

/** What went wrong with the disk, whichever layer (SQLite or the file system) noticed it. */
export type StorageFault = 'disk_full' | 'quota' | 'read_only' | 'no_permission' | 'missing' | 'io' | 'damaged';

const ERRNO_FAULTS: Record<string, StorageFault> = {
  ENOSPC: 'disk_full',
  EDQUOT: 'quota',
  EROFS: 'read_only',
  EACCES: 'no_permission',
  EPERM: 'no_permission',
  ENOENT: 'missing',
  ENOTDIR: 'missing',
  ENODEV: 'missing',
  ENXIO: 'missing',
  ESTALE: 'missing',
  EIO: 'io',
};

/** SQLite's primary result codes (extended codes such as SQLITE_IOERR_WRITE share their prefix). */
const SQLITE_FAULTS: Array<[string, StorageFault]> = [
  ['SQLITE_FULL', 'disk_full'],
  ['SQLITE_READONLY', 'read_only'],
  ['SQLITE_PERM', 'no_permission'],
  ['SQLITE_AUTH', 'no_permission'],
  ['SQLITE_CANTOPEN', 'missing'],
  ['SQLITE_IOERR', 'io'],
  ['SQLITE_CORRUPT', 'damaged'],
  ['SQLITE_NOTADB', 'damaged'],
];

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The fault an errno or SQLite error stands for; undefined for anything else (a bug, a constraint, a busy lock). */
export function storageFaultOf(error: unknown): StorageFault | undefined {
  const code = codeOf(error);
  if (code === undefined) return undefined;
  if (Object.hasOwn(ERRNO_FAULTS, code)) return ERRNO_FAULTS[code];
  // SQLITE_IOERR_NOMEM and friends are memory, not disk; SQLITE_READONLY_DBMOVED is the file moved away.
  if (code === 'SQLITE_IOERR_NOMEM') return undefined;
  if (code === 'SQLITE_READONLY_DBMOVED') return 'missing';
  for (const [prefix, fault] of SQLITE_FAULTS) if (code === prefix || code.startsWith(`${prefix}_`)) return fault;
  return undefined;
}

const MESSAGES: Record<StorageFault, (dir: string, action: string) => string> = {
  disk_full: (dir, action) =>
    `The disk is full, so Atelier could not ${action}: free some space on the drive holding ${dir} and try again. ` +
    'Nothing already saved was lost.',
  quota: (dir, action) =>
    `Your disk quota is used up, so Atelier could not ${action}: free some space in ${dir} and try again. ` +
    'Nothing already saved was lost.',
  read_only: (dir, action) =>
    `The library folder (${dir}) is on a read-only disk, so Atelier could not ${action}: make it writable or choose ` +
    'another data folder, then try again.',
  no_permission: (dir, action) =>
    `Atelier is not allowed to write to its library folder (${dir}), so it could not ${action}: check the folder's ` +
    'permissions and try again.',
  missing: (dir, action) =>
    `The library folder (${dir}) is missing, so Atelier could not ${action}: reconnect its drive or choose another ` +
    'folder, then try again.',
  io: (dir, action) =>
    `Atelier could not ${action}: the drive holding ${dir} reported a read or write error (was it disconnected?). ` +
    'Reconnect it and try again.',
  damaged: (dir, action) =>
    `Atelier could not ${action}: the library database in ${dir} is damaged. Quit Atelier and restore a copy from ` +
    `${dir}/backups.`,
};

/**
 * Any disk failure (ENOSPC, EROFS, SQLITE_FULL, SQLITE_IOERR_*, SQLITE_READONLY_*, …) as AppError('storage') with
 * a message a person understands; `action` completes "Atelier could not …". Other errors come back unchanged.
 */
export function asStorageError(error: unknown, dataDir: string, action: string): unknown {
  if (error instanceof AppError) return error;
  const fault = storageFaultOf(error);
  if (fault === undefined) return error;
  const code = codeOf(error)!;
  const details = code.startsWith('SQLITE_')
    ? { sqlite: code, reason: fault, action }
    : { errno: code, reason: fault, action };
  return new AppError('storage', MESSAGES[fault](dataDir, action), { retryable: false, details, cause: error });
}

/** Like asStorageError, but anything unrecognised still becomes `storage`, saying what Atelier was doing. */
export function toStorageError(error: unknown, dataDir: string, action: string): AppError {
  const mapped = asStorageError(error, dataDir, action);
  if (mapped instanceof AppError) return mapped;
  const code = codeOf(error);
  return new AppError('storage', `Atelier could not ${action}: ${code ?? 'unknown error'}.`, {
    retryable: false,
    details: { errno: code ?? 'unknown', action },
    cause: error,
  });
}
