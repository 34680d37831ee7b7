import { createMetadataPool, type MetadataPool, type MetadataReader } from './metadata-pool.js';

let pool: MetadataPool | undefined;
let holders = 0;

/** Reads settings on the process's metadata threads (started on first use): never on the caller's event loop. */
export const readMetadataOffThread: MetadataReader = (bytes, options) =>
  (pool ??= createMetadataPool()).read(bytes, options);

/**
 * Each engine holds the threads while it is open; when the last one lets go they are terminated (a later read
 * starts them again). One pool for the process: a second engine (a library move) shares it, never stops it.
 */
export function holdMetadataReaders(): { release(): Promise<void> } {
  holders += 1;
  let released = false;
  return {
    async release(): Promise<void> {
      if (released) return;
      released = true;
      holders -= 1;
      if (holders > 0 || pool === undefined) return;
      const closing = pool;
      pool = undefined;
      await closing.close();
    },
  };
}
