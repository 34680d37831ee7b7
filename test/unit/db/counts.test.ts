import { describe, expect, it } from 'vitest';
import { image, open, req } from './helpers.js';

describe('counts that follow the query', () => {
  // Every figure counts images, as the tabs show them (five foxes of two images each are ten).
  it('stop at the cap and say which did, so a broad query never counts the whole library', () => {
    const store = open({ countCap: 3 });
    for (let i = 0; i < 5; i += 1) {
      const { job } = store.submit(req(`fox ${i}`));
      store.claim(job.id);
      store.succeed(job.id, [image(0), image(1)], { timings: {} });
    }
    const { job: owl } = store.submit(req('owl'));
    store.claim(owl.id);
    store.succeed(owl.id, [image(0)], { timings: {} });
    expect(store.curation.count({ search: 'fox' })).toEqual({
      active: 3,
      favorites: 0,
      trash: 0,
      images: 3,
      capped: ['active', 'images'],
    });
    expect(store.curation.count({ search: 'owl' })).toEqual({
      active: 1,
      favorites: 0,
      trash: 0,
      images: 1,
      capped: [],
    });
    // Without a query the totals are exact at any size: they are kept, not counted.
    expect(store.curation.count({})).toEqual({ active: 11, favorites: 0, trash: 0, images: 11, capped: [] });
    store.close();
  });
});
