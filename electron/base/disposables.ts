import type { Logger } from './logger.js';

/** Something a service holds until it is closed: threads, timers, watchers, a database. */
export type Dispose = () => void | Promise<void>;

export interface DisposableStore {
  /** Registers what closes a service just created; the store closes them in reverse order of registration. */
  add(name: string, dispose: Dispose): void;
  /** Closes everything once, last registered first; one failing close is logged and the rest still run. */
  close(): Promise<void>;
}

export function createDisposableStore(log?: Logger): DisposableStore {
  const entries: Array<{ name: string; dispose: Dispose }> = [];
  let closed: Promise<void> | undefined;
  return {
    add(name, dispose) {
      if (closed !== undefined) throw new Error(`${name} was registered after its store closed`);
      entries.push({ name, dispose });
    },
    close() {
      closed ??= (async () => {
        for (const { name, dispose } of entries.reverse()) {
          try {
            await dispose();
          } catch (error) {
            log?.error('could not close a service', { service: name, error: String(error) });
          }
        }
      })();
      return closed;
    },
  };
}
