import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createCountPool, type CountPool } from '../../../electron/db/count-pool.js';
import { DATABASE_FILE } from '../../../electron/db/store.js';
import type { JobStore } from '../../../electron/db/types.js';
import { createModelLibraryHandlers } from '../../../electron/engine/model-library-handlers.js';
import { finished, image, open, tempDir } from '../../unit/db/helpers.js';

/** The model library's usage is a GROUP BY over every job: read on the counting thread, never holding the main one. */
describe('the model library’s usage', () => {
  let pool: CountPool | undefined;
  let store: JobStore | undefined;
  afterEach(async () => {
    await pool?.close();
    store?.close();
  });

  function setUp() {
    const dir = tempDir();
    store = open({ dataDir: dir });
    pool = createCountPool({ path: join(dir, DATABASE_FILE) });
    const own = store;
    // The main thread's own read is never called when the pool is there.
    const planned = {
      ...own,
      modelUsage: {
        ...own.modelUsage,
        usage: () => {
          throw new Error('read on the main thread');
        },
      },
    };
    const handlers = createModelLibraryHandlers({
      store: planned,
      providers: {
        instances: () => [],
        get: () => undefined as never,
        placeable: () => false,
        test: async () => undefined as never,
      },
      settings: { provider: () => undefined },
      counts: pool,
    });
    return { store: own, pool, library: handlers['models.library'] };
  }

  let made = 0;

  it('is read on the counting thread, the same as the store reads it, and again only once the library changes', async () => {
    const { store, pool, library } = setUp();
    finished(store, 'a fox', { model: 'dreamshaper_8' }, [image((made += 1))]);
    finished(store, 'an owl', { model: 'dreamshaper_8' }, [image((made += 1))]);
    const first = await library({ sort: 'used', limit: 2_000 });
    const entry = first.items.find((m) => m.name === 'dreamshaper_8');
    expect(entry).toMatchObject({ kind: 'checkpoint', imageCount: 2 });
    expect(store.modelUsage.usage().models.map((m) => [m.key, m.images])).toEqual([['dreamshaper_8', 2]]);
    expect(pool.stats().lastThread).not.toBeNull();
    expect(pool.stats().lastThread).not.toBe(threadId);
    expect(pool.stats().counted).toBe(1);

    await library({ sort: 'used', limit: 2_000 });
    expect(pool.stats().counted).toBe(1);
    finished(store, 'a hare', { model: 'dreamshaper_8' }, [image((made += 1))]);
    const after = await library({ sort: 'used', limit: 2_000 });
    expect(after.items.find((m) => m.name === 'dreamshaper_8')?.imageCount).toBe(3);
    expect(pool.stats().counted).toBe(2);
  });
});
