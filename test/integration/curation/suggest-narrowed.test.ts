import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCountPool, type CountPool } from '../../../electron/db/count-pool.js';
import { DATABASE_FILE } from '../../../electron/db/store.js';
import type { JobStore } from '../../../electron/db/types.js';
import { createCurationHandlers } from '../../../electron/engine/curation-handlers.js';
import { createEventBus } from '../../../electron/base/events.js';
import { finished, image, open, tempDir } from '../../unit/db/helpers.js';

describe('sampler suggestions and search, one name per sampler', () => {
  const pools: CountPool[] = [];
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });

  let made = 0;
  const job = (store: JobStore, prompt: string, sampler: string) =>
    finished(store, prompt, { sampler }, [image((made += 1))]);

  function library(tuning: { searchWalkBudget?: number; browseSortMax?: number } = {}) {
    const dir = tempDir();
    const store = open({ dataDir: dir, ...tuning });
    const ids = {
      a1111: job(store, 'a fox at dawn', 'Euler a'),
      comfy: job(store, 'a fox in snow', 'euler_ancestral'),
      kdiff: job(store, 'an owl at dawn', 'k_euler_ancestral'),
      invoke: job(store, 'an owl in rain', 'Euler Ancestral'),
      plain: job(store, 'a fox in rain', 'euler'),
      uni: job(store, 'a hare', 'uni_pc'),
      uniPc: job(store, 'a hare at dawn', 'UniPC'),
    };
    const pool = createCountPool({ path: join(dir, DATABASE_FILE) });
    pools.push(pool);
    const handlers = createCurationHandlers({
      store,
      bus: createEventBus(),
      now: () => 0,
      announce: () => undefined,
      sidecars: { queue: () => undefined },
      counts: pool,
    });
    const find = (search: string) =>
      store
        .list({ limit: 50, view: 'active', search })
        .items.map((j) => j.id)
        .sort();
    return { store, ids, pool, suggest: handlers['search.suggest'], find };
  }
  const shown = (r: { items: Array<{ label: string; count?: number | undefined }> }) =>
    r.items.map((i) => [i.label, i.count]);

  it('offers one "Euler a" and one "UniPC" with their spellings counted together', async () => {
    const { suggest } = library();
    expect(shown(await suggest({ text: 'sampler:', cursor: 8 }))).toEqual([
      ['Euler a', 4],
      ['UniPC', 2],
      ['Euler', 1],
    ]);
    expect(shown(await suggest({ text: 'sampler:uni', cursor: 11 }))).toEqual([['UniPC', 2]]);
  });

  it('finds every spelling when the suggestion is chosen, and only those', async () => {
    const { ids, find, store } = library();
    const chosen = store.curation.suggest('sampler:euler_anc', 17).items[0]!;
    expect(chosen.insert).toBe('sampler:"Euler a"');
    expect(find(chosen.insert)).toEqual([ids.a1111, ids.comfy, ids.kdiff, ids.invoke].sort());
    expect(find('sampler:UniPC')).toEqual([ids.uni, ids.uniPc].sort());
    // With free words too: the other spellings hold no "unipc" in their settings line, and are found all the same,
    // whichever way the search reads (here the gram index, with no walk and no sorted typed read).
    expect(find('hare sampler:UniPC')).toEqual([ids.uni, ids.uniPc].sort());
    const indexed = library({ searchWalkBudget: 0, browseSortMax: 0 });
    expect(indexed.find('hare sampler:UniPC')).toEqual([indexed.ids.uni, indexed.ids.uniPc].sort());
    expect(find('-sampler:"Euler a"')).toEqual([ids.plain, ids.uni, ids.uniPc].sort());
  });

  it('narrows the values by the rest of the query, counted among its matches on the counting thread', async () => {
    const { suggest, pool, store } = library();
    const narrowed = await suggest({ text: 'dawn sampler:', cursor: 13 });
    expect(shown(narrowed)).toEqual([
      ['Euler a', 2],
      ['UniPC', 1],
    ]);
    expect(pool.stats().counted).toBe(1);
    // The clause under the caret is left out of the rest, wherever the caret is in the query.
    expect(shown(await suggest({ text: 'sampler:uni rain', cursor: 11 }))).toEqual([]);
    expect(shown(await suggest({ text: 'sampler:eu rain', cursor: 10 }))).toEqual([
      ['Euler', 1],
      ['Euler a', 1],
    ]);
    // The store's own answer (no thread) agrees.
    expect(shown(store.curation.suggest('dawn sampler:', 13))).toEqual(shown(narrowed));
  });
});
