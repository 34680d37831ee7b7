import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createCountPool, type CountPool } from '../../../electron/db/count-pool.js';
import { DATABASE_FILE } from '../../../electron/db/store.js';
import type { JobStore } from '../../../electron/db/types.js';
import { createCurationHandlers } from '../../../electron/engine/curation-handlers.js';
import { createEventBus } from '../../../electron/base/events.js';
import { finished, image, open, tempDir } from '../../unit/db/helpers.js';

describe('the counts that follow a query', () => {
  let pool: CountPool | undefined;
  let store: JobStore | undefined;
  afterEach(async () => {
    await pool?.close();
    store?.close();
  });

  let dir = '';
  function setUp() {
    dir = tempDir();
    store = open({ dataDir: dir });
    pool = createCountPool({ path: join(dir, DATABASE_FILE) });
    // The main thread's own count is never called: the handler plans here and counts on the pool's thread.
    const planned: JobStore = {
      ...store,
      curation: {
        ...store.curation,
        count: () => {
          throw new Error('counted on the main thread');
        },
      },
    };
    const handlers = createCurationHandlers({
      store: planned,
      bus: createEventBus(),
      now: () => 0,
      announce: () => undefined,
      sidecars: { queue: () => undefined },
      counts: pool,
    });
    return { store, pool, count: handlers['jobs.count'] };
  }

  let made = 0;
  /** A finished job with one image (the counts count images). */
  const job = (s: JobStore, prompt: string) => finished(s, prompt, {}, [image((made += 1))]);

  it('are counted on the counting thread, equal to what the store counts itself', async () => {
    const { store, pool, count } = setUp();
    for (const prompt of ['a red fox', 'a fox at dawn', 'an owl']) job(store, prompt);
    const answer = await count({ search: 'fox' });
    expect(answer).toEqual(store.curation.count({ search: 'fox' }));
    expect(answer).toMatchObject({ active: 2, images: 2, trash: 0 });
    const { counted, lastThread } = pool.stats();
    expect(counted).toBe(1);
    expect(lastThread).not.toBeNull();
    expect(lastThread).not.toBe(threadId);
  });

  it('are answered again from the cache until the library changes, then counted anew', async () => {
    const { store, pool, count } = setUp();
    job(store, 'a red fox');
    expect((await count({ search: 'fox' })).active).toBe(1);
    expect((await count({ search: 'fox' })).active).toBe(1);
    expect(pool.stats().counted).toBe(1);
    job(store, 'another fox');
    expect((await count({ search: 'fox' })).active).toBe(2);
    expect(pool.stats().counted).toBe(2);
  });

  it('count the trash and the favourites through their own small indexes, whatever index the clause has', async () => {
    const { store, count } = setUp();
    const ids = ['a fox', 'a fox at dawn', 'a fox in rain'].map((p) =>
      finished(store, p, { steps: 25 }, [image((made += 1))]),
    );
    store.curation.trash({ ids: [store.get(ids[0]!).images[0]!.id] });
    store.curation.setFavorite({ ids: [store.get(ids[1]!).images[0]!.id] }, true);
    const search = 'steps:20-30 fox';
    const plan = store.curation.countPlan({ search });
    if ('counts' in plan) throw new Error('a query is counted, not read from the totals');
    const [active, favorites, trash] = plan.statements.map((s) => {
      const db = new Database(join(dir, DATABASE_FILE), { readonly: true });
      try {
        return (db.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.params) as Array<{ detail: string }>)
          .map((r) => r.detail)
          .join('\n');
      } finally {
        db.close();
      }
    });
    expect(trash).toMatch(/USING INDEX jobs_in_trash_created/);
    expect(favorites).toMatch(/USING INDEX jobs_favorite_created/);
    expect(active).not.toMatch(/jobs_in_trash_created|jobs_favorite_created/);
    expect(await count({ search })).toMatchObject({ active: 2, favorites: 1, trash: 1 });
    // is:trashed asks for the trash itself: no hint, the same answer either way.
    expect((await count({ search: 'is:trashed fox' })).trash).toBe(1);
  });

  it('without a query are read from the totals and the small indexes on the counting thread too', async () => {
    const { store, pool, count } = setUp();
    job(store, 'a red fox');
    job(store, 'an owl');
    expect(await count({})).toEqual(store.curation.count({}));
    expect((await count({})).active).toBe(2);
    expect(pool.stats().counted).toBe(1);
  });
});
