import { describe, expect, it } from 'vitest';
import type { ImageSummary, JobSummary } from '../../../../shared/contract';
import { AppError } from '../../../../shared/errors';
import { DEFAULT_FILTERS, toListQuery } from '../../../../renderer/src/store/filters';
import * as model from '../../../../renderer/src/store/jobs-model';
import { createAppStore } from '../../../../renderer/src/store/store';
import { wireEvents } from '../../../../renderer/src/store/wire-events';
import { deferred, emptyStats, fakeApi, flush, makeJob } from '../helpers';

function image(id: string, extra: Partial<ImageSummary> = {}): ImageSummary {
  return { id, index: 0, width: 64, height: 64, mime: 'image/png', bytes: 10, ...extra };
}

function storeWith(handlers: Parameters<typeof fakeApi>[0], jobs: JobSummary[]) {
  const fake = fakeApi({ 'jobs.list': async () => ({ items: jobs, nextCursor: null }), ...handlers });
  const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
  return { fake, store };
}

describe('per-image curation in the store', () => {
  it('a rating shows on those images at once, and its toast undoes exactly that action', async () => {
    const job = makeJob({ images: [image('i1'), image('i2'), image('i3'), image('i4')] });
    const answer = deferred<{ updated: number; undoId: string | null }>();
    const { fake, store } = storeWith(
      { 'images.setRating': () => answer.promise, 'images.undo': async () => ({ updated: 2 }) },
      [job],
    );
    await store.getState().loadFirstPage();
    const done = store.getState().rate({ images: { imageIds: ['i2', 'i4'], jobIds: [job.id] } }, 4);
    // Before the engine answers, the card already shows it.
    expect(store.getState().jobs.byId[job.id]!.images.map((i) => i.rating ?? 0)).toEqual([0, 4, 0, 4]);
    answer.resolve({ updated: 2, undoId: 'u-1' });
    expect(await done).toBe(true);
    expect(fake.calls.find((c) => c.channel === 'images.setRating')?.input).toEqual({ ids: ['i2', 'i4'], rating: 4 });
    const toast = store.getState().toasts.find((t) => t.action?.label === 'Undo');
    expect(toast?.message).toBe('Rated 2 images ★★★★.');
    toast!.action!.run();
    await flush();
    expect(fake.calls.find((c) => c.channel === 'images.undo')?.input).toEqual({ undoId: 'u-1' });
    expect(store.getState().jobs.byId[job.id]!.images.map((i) => i.rating ?? 0)).toEqual([0, 0, 0, 0]);
  });

  it('a refused action puts the cards back and says why', async () => {
    const job = makeJob({ images: [image('i1', { favorite: true })] });
    const { store } = storeWith(
      { 'images.setFavorite': async () => Promise.reject(new AppError('not_found', 'That image is gone.')) },
      [job],
    );
    await store.getState().loadFirstPage();
    expect(await store.getState().favoriteImages({ images: { imageIds: ['i1'], jobIds: [job.id] } }, false)).toBe(
      false,
    );
    expect(store.getState().jobs.byId[job.id]!.images[0]!.favorite).toBe(true);
    expect(store.getState().toasts.map((t) => t.message)).toEqual(['That image is gone.']);
  });

  it('culling one image at a time shows no toasts; bulk actions keep one toast, the newest action’s, and trash always offers Undo', async () => {
    const job = makeJob({ images: [image('i1'), image('i2')] });
    let n = 0;
    const { store } = storeWith(
      {
        'images.setRating': async () => ({ updated: 1, undoId: `u-${++n}` }),
        'images.trash': async () => ({ updated: 1, undoId: 't-1' }),
      },
      [job],
    );
    await store.getState().loadFirstPage();
    const one = { images: { imageIds: ['i1'], jobIds: [job.id] } };
    const both = { images: { imageIds: ['i1', 'i2'], jobIds: [job.id] } };
    for (const rating of [1, 2, 3]) await store.getState().rate(one, rating);
    expect(store.getState().toasts).toEqual([]);
    for (const rating of [4, 5]) await store.getState().rate(both, rating);
    expect(store.getState().toasts.map((t) => t.message)).toEqual(['Rated 1 image ★★★★★.']);
    await store.getState().trashImages(one);
    // The newest action's Undo is the one on offer.
    expect(store.getState().toasts.map((t) => [t.message, t.action?.label])).toEqual([
      ['Moved 1 image to Trash.', 'Undo'],
    ]);
  });

  it('"all matches" sends the current search and filters as the query, one call, and refetches the grid', async () => {
    const { fake, store } = storeWith({ 'images.tag': async () => ({ updated: 12408, undoId: 'u-9' }) }, []);
    store.setState({
      filters: { ...DEFAULT_FILTERS, search: ' model:sdxl rating:>=4 ', source: 'comfyui', view: 'favorites' },
    });
    await store.getState().tagImages({ query: true }, { add: ['keep'] });
    expect(fake.calls.filter((c) => c.channel === 'images.tag').map((c) => c.input)).toEqual([
      { query: { view: 'active', favorite: true, source: 'comfyui', search: 'model:sdxl rating:>=4' }, add: ['keep'] },
    ]);
    expect(store.getState().toasts[0]?.message).toBe('Tagged 12,408 images keep.');
    await flush();
    expect(fake.calls.filter((c) => c.channel === 'jobs.list')).toHaveLength(1);
  });

  it('a search the engine cannot read keeps the results on screen and says where and why', async () => {
    const job = makeJob({ images: [image('i1')] });
    let fail = false;
    const fake = fakeApi({
      'jobs.list': async () => {
        if (fail)
          throw new AppError('invalid_request', 'Bad search', { details: { at: 5, message: 'A seed is digits.' } });
        return { items: [job], nextCursor: null };
      },
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    await store.getState().loadFirstPage();
    fail = true;
    await store.getState().setSearch('seed:abc');
    expect(store.getState().jobs.order).toEqual([job.id]);
    expect(store.getState().historyState).toBe('ready');
    expect(store.getState().searchError).toEqual({ text: 'seed:abc', at: 5, message: 'A seed is digits.' });
    expect(store.getState().toasts).toEqual([]);
    fail = false;
    await store.getState().setSearch('seed:1');
    expect(store.getState().searchError).toBeNull();
  });
});

describe('sort and events', () => {
  it('the sort and the shuffle go to jobs.list; newest first sends neither', () => {
    expect(toListQuery(DEFAULT_FILTERS)).not.toHaveProperty('sort');
    expect(toListQuery({ ...DEFAULT_FILTERS, sort: 'oldest' })).toMatchObject({ sort: 'oldest' });
    expect(toListQuery({ ...DEFAULT_FILTERS, sort: 'random', shuffle: 77 })).toMatchObject({
      sort: 'random',
      shuffle: 77,
    });
    expect(toListQuery({ ...DEFAULT_FILTERS, sort: 'rating', shuffle: 77 })).not.toHaveProperty('shuffle');
  });

  it('in another order than newest the page’s order stands, and an arrival waits for the next fetch', () => {
    const filters = { ...DEFAULT_FILTERS, sort: 'rating' as const };
    const older = makeJob({ createdAt: 1, updatedAt: 1 });
    const newer = makeJob({ createdAt: 2, updatedAt: 2 });
    let data = model.applyFirstPage(
      model.beginFirstPage(model.EMPTY_JOBS),
      { items: [older, newer], nextCursor: null },
      filters,
    );
    expect(data.order).toEqual([older.id, newer.id]);
    data = model.applyJobChanged(data, makeJob({ createdAt: 3, updatedAt: 3 }), filters);
    expect(data.order).toEqual([older.id, newer.id]);
  });

  it('a card shown for a typed-key search stays when an event updates it; one image trashed of a batch keeps the card', () => {
    const filters = { ...DEFAULT_FILTERS, search: 'rating:0' };
    const job = makeJob({ images: [image('a'), image('b')], updatedAt: 1 });
    let data = model.applyFirstPage(
      model.beginFirstPage(model.EMPTY_JOBS),
      { items: [job], nextCursor: null },
      filters,
    );
    data = model.applyJobChanged(
      data,
      { ...job, updatedAt: 2, images: [image('a', { rating: 3 }), image('b', { trashed: true })] },
      filters,
    );
    expect(data.order).toEqual([job.id]);
    // Every image trashed: the card leaves the active grid, as a trashed job does.
    data = model.applyJobChanged(
      data,
      { ...job, updatedAt: 3, images: [image('a', { trashed: true }), image('b', { trashed: true })] },
      filters,
    );
    expect(data.order).toEqual([]);
    // A new job for a typed-key search is not placed by the client (it cannot judge the query).
    data = model.applyJobChanged(data, makeJob({ createdAt: 9e12, updatedAt: 9e12 }), filters);
    expect(data.order).toEqual([]);
  });
});

describe('live counts', () => {
  it('library.curated refetches the boards’ counts and the query’s counts once they are shown (a smart board stays live)', async () => {
    let boardCount = 3;
    const fake = fakeApi({
      'jobs.list': async () => ({ items: [], nextCursor: null }),
      'jobs.stats': async () => emptyStats,
      'jobs.count': async () => ({ active: 1, favorites: 0, trash: 0, images: boardCount, capped: [] }),
      'boards.list': async () => ({
        items: [
          {
            id: '00000000-0000-7000-8000-000000000001',
            name: 'Sky',
            query: 'tag:sky',
            count: boardCount,
            createdAt: 1,
          },
        ],
      }),
      'settings.get': async () => ({
        concurrency: { global: 1 },
        retention: { trashAutoEmptyDays: 30, maxJobs: null, maxBytes: null, maxAgeDays: null },
        theme: 'system',
        providers: {},
        dataDir: '/d',
      }),
      'providers.list': async () => ({ providers: [] }),
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    const timers: (() => void)[] = [];
    wireEvents(store, fake.api, { setTimeout: (fn) => timers.push(fn), clearTimeout: () => undefined });
    await store.getState().loadBoards();
    await store.getState().loadCounts();
    expect(store.getState().boards?.[0]?.count).toBe(3);
    boardCount = 5;
    fake.emit('library.curated', { at: 1 });
    for (const run of timers.splice(0)) run();
    await flush();
    await flush();
    expect(store.getState().boards?.[0]?.count).toBe(5);
    expect(store.getState().counts?.images).toBe(5);
  });
});

describe('curation at an equal updatedAt', () => {
  it('an event or page whose images differ replaces the held job (curation leaves updatedAt as it was); the same one writes nothing', () => {
    const job = makeJob({ images: [image('a'), image('b')], updatedAt: 5 });
    let data = model.applyFirstPage(
      model.beginFirstPage(model.EMPTY_JOBS),
      { items: [job], nextCursor: null },
      DEFAULT_FILTERS,
    );
    const rated = { ...job, images: [image('a', { rating: 5, tags: ['sky'] }), image('b')] };
    data = model.applyJobChanged(data, rated, DEFAULT_FILTERS);
    expect(data.byId[job.id]).toBe(rated);
    // A copy with the same images is no news.
    expect(
      model.applyJobChanged(data, { ...rated, images: rated.images.map((i) => ({ ...i })) }, DEFAULT_FILTERS),
    ).toBe(data);
    // A bulk action's refetch brings the tags another window added.
    const tagged = { ...rated, images: [image('a', { rating: 5, tags: ['sky', 'sea'] }), image('b')] };
    data = model.applyFirstPage(model.beginFirstPage(data), { items: [tagged], nextCursor: null }, DEFAULT_FILTERS);
    expect(data.byId[job.id]!.images[0]!.tags).toEqual(['sky', 'sea']);
    // An older version never wins, whatever its images.
    expect(model.applyJobChanged(data, { ...job, updatedAt: 4 }, DEFAULT_FILTERS)).toBe(data);
  });
});
