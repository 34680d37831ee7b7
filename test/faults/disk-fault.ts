/**
 * One simulated disk shared by both seams: the store's connection (SQLITE_FULL from a statement's run) and the
 * media file system (ENOSPC on writes). It fills up at a chosen write and stays full until cleared, as a real disk.
 */
import Database from 'better-sqlite3';
import type { Db } from '../../electron/db/connection.js';
import { nodeMediaFs, type MediaFs } from '../../electron/media/media-fs.js';

export interface FillTrigger {
  /** Fills on the first statement whose SQL matches (and whose named parameters pass `params`). */
  sql?: RegExp;
  params?: (p: Record<string, unknown>) => boolean;
  /** Fills on the first file write whose path matches. */
  path?: RegExp;
}

export interface DiskFault {
  wrapDatabase(db: Db): Db;
  fs: MediaFs;
  /** The disk fills at the next write that matches (every write after it fails too). */
  fillAt(trigger: FillTrigger): void;
  fillNow(): void;
  clear(): void;
  readonly full: boolean;
  /** Writes refused so far (SQLite and files). */
  readonly refused: number;
}

function enospc(path: string): NodeJS.ErrnoException {
  const error = new Error(`ENOSPC: no space left on device, write '${path}'`) as NodeJS.ErrnoException;
  error.code = 'ENOSPC';
  return error;
}

const bindAll = <T extends object>(target: T, key: string | symbol): unknown => {
  const value = Reflect.get(target, key, target) as unknown;
  return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
};

export function createDiskFault(): DiskFault {
  let trigger: FillTrigger | null = null;
  let full = false;
  let refused = 0;
  const refuseSql = (sql: string, params: unknown[]): void => {
    if (!full && trigger?.sql?.test(sql) === true) {
      const named = (typeof params[0] === 'object' && params[0] !== null ? params[0] : {}) as Record<string, unknown>;
      if (trigger.params === undefined || trigger.params(named)) full = true;
    }
    if (full) {
      refused += 1;
      throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
    }
  };
  const refusePath = (path: string): void => {
    if (!full && trigger?.path?.test(path.replaceAll('\\', '/')) === true) full = true;
    if (full) {
      refused += 1;
      throw enospc(path);
    }
  };

  const wrapStatement = (stmt: Database.Statement, sql: string): Database.Statement =>
    new Proxy(stmt, {
      get(target, key) {
        if (key === 'run') {
          return (...params: unknown[]) => {
            refuseSql(sql, params);
            return target.run(...params);
          };
        }
        return bindAll(target, key);
      },
    });

  const fs: MediaFs = {
    ...nodeMediaFs,
    async open(path, flags, mode) {
      if (flags !== 'r') refusePath(path);
      const handle = await nodeMediaFs.open(path, flags, mode);
      return {
        writeFile: async (data) => {
          if (full) {
            // A full disk takes part of the data, then refuses the rest.
            await handle.writeFile(data.subarray(0, Math.floor(data.length / 2)));
            refused += 1;
            throw enospc(path);
          }
          return handle.writeFile(data);
        },
        sync: () => handle.sync(),
        close: () => handle.close(),
      };
    },
    async mkdir(path) {
      if (full) refusePath(path);
      return nodeMediaFs.mkdir(path);
    },
  };

  return {
    wrapDatabase: (db) =>
      new Proxy(db, {
        get(target, key) {
          if (key === 'prepare') return (sql: string) => wrapStatement(target.prepare(sql), sql);
          return bindAll(target, key);
        },
      }),
    fs,
    fillAt(next) {
      trigger = next;
    },
    fillNow() {
      full = true;
    },
    clear() {
      full = false;
      trigger = null;
    },
    get full() {
      return full;
    },
    get refused() {
      return refused;
    },
  };
}
