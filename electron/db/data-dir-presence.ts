import { statSync } from 'node:fs';
import { AppError } from '../../shared/errors.js';

export type Presence = 'here' | 'gone' | 'replaced';

interface Identity {
  dev: number;
  ino: number;
}

function identityOf(path: string): Identity | null {
  try {
    const s = statSync(path, { throwIfNoEntry: false });
    return s === undefined ? null : { dev: s.dev, ino: s.ino };
  } catch {
    // EIO, ENOTDIR, ESTALE: a drive pulled mid-call reads as gone.
    return null;
  }
}

const same = (a: Identity | null, b: Identity): boolean => a !== null && a.dev === b.dev && a.ino === b.ino;

export interface LibraryPresence {
  /** Where the library stands now: two stat calls, a few microseconds. */
  check(): Presence;
  /** Throws AppError('storage') in words a person understands unless the library is still where it was opened. */
  assertHere(): void;
}

/**
 * Remembers which file atelier.db and the data dir were when opened. SQLite keeps writing into an open file after
 * its folder is deleted or its drive unmounted (into an unlinked inode, lost at exit), so every write first checks
 * that the path still leads to that same file. The same file back (a drive reconnected) passes again by itself;
 * a different one (a folder restored from a copy) is refused until a restart opens it properly.
 */
export function watchLibraryPresence(dataDir: string, databasePath: string): LibraryPresence {
  const dir = identityOf(dataDir);
  const db = identityOf(databasePath);
  if (dir === null || db === null)
    throw new AppError('storage', `The library in ${dataDir} vanished while it was being opened.`);
  const check = (): Presence => {
    const nowDb = identityOf(databasePath);
    const nowDir = identityOf(dataDir);
    if (nowDb === null || nowDir === null) return 'gone';
    return same(nowDb, db) && same(nowDir, dir) ? 'here' : 'replaced';
  };
  return {
    check,
    assertHere() {
      const presence = check();
      if (presence === 'gone') {
        throw new AppError(
          'storage',
          `The library folder (${dataDir}) is gone — was its drive disconnected? Reconnect it and Atelier carries on ` +
            'by itself; nothing is saved until then.',
          { retryable: true, details: { reason: 'library_gone', dataDir } },
        );
      }
      if (presence === 'replaced') {
        throw new AppError(
          'storage',
          `The library folder (${dataDir}) was replaced by another copy while Atelier was running, so nothing was ` +
            'saved to it. Quit Atelier and start it again to use the library as it is now.',
          { retryable: false, details: { reason: 'library_replaced', dataDir } },
        );
      }
    },
  };
}
