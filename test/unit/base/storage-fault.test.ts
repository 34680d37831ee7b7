import fc from 'fast-check';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { asStorageError, storageFaultOf, toStorageError } from '../../../electron/base/storage-fault.js';
import { toStorageError as mediaToStorageError } from '../../../electron/media/storage-error.js';

const sqlite = (code: string) => new Database.SqliteError(`simulated ${code}`, code);
const errno = (code: string) => Object.assign(new Error(`${code}: simulated`), { code });
const suffix = fc.stringMatching(/^[A-Z]{1,12}$/);

describe('one mapper for disk failures, SQLite and file system alike', () => {
  it('maps every extended SQLITE_IOERR_*, SQLITE_READONLY_* and SQLITE_FULL to storage in words', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('SQLITE_IOERR', 'SQLITE_READONLY', 'SQLITE_FULL', 'SQLITE_CANTOPEN'),
        fc.option(suffix),
        (primary, ext) => {
          const code = ext === null ? primary : `${primary}_${ext}`;
          fc.pre(code !== 'SQLITE_IOERR_NOMEM' && code !== 'SQLITE_READONLY_DBMOVED');
          const mapped = asStorageError(sqlite(code), '/lib', 'save this change');
          expect(mapped).toBeInstanceOf(AppError);
          expect((mapped as AppError).code).toBe('storage');
          expect((mapped as AppError).details).toMatchObject({ sqlite: code });
          expect((mapped as AppError).message).toMatch(/\/lib/);
          expect((mapped as AppError).message).not.toMatch(/SQLITE_|simulated/);
        },
      ),
    );
  });

  it('says what happened and what to do for each fault', () => {
    const cases: Array<[Error, RegExp]> = [
      [sqlite('SQLITE_FULL'), /disk is full, so Atelier could not save this change: free some space/],
      [errno('ENOSPC'), /disk is full, so Atelier could not save this change: free some space/],
      [errno('EDQUOT'), /quota is used up.*free some space/],
      [sqlite('SQLITE_READONLY'), /read-only disk.*make it writable/],
      [errno('EROFS'), /read-only disk.*make it writable/],
      [sqlite('SQLITE_READONLY_DBMOVED'), /is missing.*reconnect its drive/],
      [sqlite('SQLITE_IOERR_WRITE'), /read or write error \(was it disconnected\?\)\. Reconnect it/],
      [errno('EIO'), /read or write error/],
      [errno('EACCES'), /not allowed to write.*permissions/],
    ];
    for (const [error, message] of cases)
      expect((asStorageError(error, '/lib', 'save this change') as AppError).message).toMatch(message);
  });

  it('leaves what is not a disk failure alone: constraints, busy locks, bugs, memory', () => {
    for (const error of [
      sqlite('SQLITE_CONSTRAINT_UNIQUE'),
      sqlite('SQLITE_BUSY'),
      sqlite('SQLITE_IOERR_NOMEM'),
      new TypeError('bug'),
    ]) {
      expect(storageFaultOf(error)).toBeUndefined();
      expect(asStorageError(error, '/lib', 'x')).toBe(error);
    }
    const typed = new AppError('not_found', 'no such job');
    expect(asStorageError(typed, '/lib', 'x')).toBe(typed);
  });

  it('media uses the very same mapper', () => {
    expect(mediaToStorageError).toBe(toStorageError);
    expect(toStorageError(errno('EXDEV'), '/lib', 'save the image').message).toBe(
      'Atelier could not save the image: EXDEV.',
    );
  });
});
