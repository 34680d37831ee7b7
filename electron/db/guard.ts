import { AppError } from '../../shared/errors.js';
import { asStorageError } from '../base/storage-fault.js';
import type { LibraryPresence } from './data-dir-presence.js';

/**
 * What a sub-store's factory hands the store: the functions that only read, and those that change the file. There
 * is no third bucket, so a function is a read or a write because its factory put it there (never by omission).
 */
export interface Access<R extends object, W extends object> {
  readonly reads: R;
  readonly writes: W;
}

type AnyFn = (...args: unknown[]) => unknown;
type Actions<W> = { [K in keyof W]?: string };

export interface StoreGuard {
  /**
   * A sub-store's reads and writes as the one object callers use. Reads answer from the open file (readable while
   * its folder is gone); every write is refused unless the library folder is still the one opened. `action` words a
   * write's storage error ("Atelier could not save this change"), `actions` per function where one needs its own.
   */
  compose<R extends object, W extends object>(access: Access<R, W>, action?: string, actions?: Actions<W>): R & W;
}

/**
 * The one guard of the store (store.ts wraps every sub-store through it): reads and writes both map disk faults to
 * `storage`; writes first check the library is still where it was opened (never answer ok into an unlinked file).
 */
export function createStoreGuard(isOpen: () => boolean, presence: LibraryPresence, dataDir: string): StoreGuard {
  const call = (fn: AnyFn, args: unknown[], action: string): unknown => {
    if (!isOpen()) throw new AppError('storage', 'The job store is closed.');
    try {
      return fn(...args);
    } catch (error) {
      throw asStorageError(error, dataDir, action);
    }
  };
  const wrapEach = <T extends object>(fns: T, wrap: (fn: AnyFn, name: string) => AnyFn): T =>
    Object.fromEntries(Object.entries(fns).map(([name, fn]) => [name, wrap(fn as AnyFn, name)])) as T;
  const reads = <R extends object>(fns: R): R =>
    wrapEach(
      fns,
      (fn) =>
        (...args) =>
          call(fn, args, 'read the library'),
    );
  const writes = <W extends object>(fns: W, action = 'save this change', actions: Actions<W> = {}): W => {
    const words = actions as Record<string, string | undefined>;
    return wrapEach(fns, (fn, name) => {
      const said = words[name] ?? action;
      return (...args) => {
        if (isOpen()) presence.assertHere();
        return call(fn, args, said);
      };
    });
  };
  return {
    compose(access, action, actions) {
      const both = Object.keys(access.reads).filter((name) => Object.hasOwn(access.writes, name));
      if (both.length > 0) throw new Error(`A store function is both a read and a write: ${both.join(', ')}`);
      return { ...reads(access.reads), ...writes(access.writes, action, actions) };
    },
  };
}
