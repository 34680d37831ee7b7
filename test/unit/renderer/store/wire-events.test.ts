import { describe, expect, it } from 'vitest';
import type { ListPage } from '../../../../shared/contract';
import { AppError } from '../../../../shared/errors';
import { DOUBLE_PRESS_MS } from '../../../../renderer/src/store/composer-slice';
import { createAppStore } from '../../../../renderer/src/store/store';
import { wireEvents } from '../../../../renderer/src/store/wire-events';
import { deferred, fakeApi, flush, makeJob, emptyStats } from '../helpers';

function setup(listPages: ((input: { status?: string[]; search?: string }) => Promise<ListPage>) | null = null) {
  const firstPage = deferred<ListPage>();
  const fake = fakeApi({
    'jobs.list': (input) => {
      const query = input as { status?: string[]; search?: string };
      if (listPages !== null) return listPages(query);
      if (query.status?.includes('running')) return Promise.resolve({ items: [], nextCursor: null });
      return firstPage.promise;
    },
    'jobs.stats': async () => emptyStats,
    'settings.get': async () => ({
      concurrency: { global: 1 },
      retention: { trashAutoEmptyDays: 30, maxJobs: null, maxBytes: null, maxAgeDays: null },
      theme: 'system',
      providers: {},
      library: { xmpSidecars: false },
      dataDir: '/d',
    }),
    'providers.list': async () => ({ providers: [] }),
  });
  let key = 0;
  const store = createAppStore({ api: fake.api, makeKey: () => `key-${++key}`, now: () => 0 });
  const timers: (() => void)[] = [];
  const unwire = wireEvents(store, fake.api, { setTimeout: (fn) => timers.push(fn), clearTimeout: () => undefined });
  return { fake, store, firstPage, unwire, timers };
}

describe('wireEvents', () => {
  it('asks for stats again while the start-up library check runs, and stops once it has answered', async () => {
    const states = ['checking', 'checking', 'needed'];
    const fake = fakeApi({
      'jobs.list': async () => ({ items: [], nextCursor: null }),
      'jobs.stats': async () => ({
        ...emptyStats,
        recovery: { state: states.shift() ?? 'needed', libraryFiles: 3, unknownFiles: 3 },
      }),
      'settings.get': async () => ({
        concurrency: { global: 1 },
        retention: { trashAutoEmptyDays: 30, maxJobs: null, maxBytes: null, maxAgeDays: null },
        theme: 'system',
        providers: {},
        library: { xmpSidecars: false },
        dataDir: '/d',
      }),
      'providers.list': async () => ({ providers: [] }),
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    const timers: (() => void)[] = [];
    wireEvents(store, fake.api, { setTimeout: (fn) => timers.push(fn), clearTimeout: () => undefined });
    const statsCalls = () => fake.calls.filter((c) => c.channel === 'jobs.stats').length;
    await flush();
    expect(statsCalls()).toBe(1);
    expect(timers).toHaveLength(1);
    timers.shift()!();
    await flush();
    expect(statsCalls()).toBe(2);
    timers.shift()!();
    await flush();
    expect(statsCalls()).toBe(3);
    expect(store.getState().stats?.recovery.state).toBe('needed');
    expect(timers).toHaveLength(0);
  });

  it('subscribes to every event before the first fetch goes out', () => {
    const { fake } = setup();
    const firstCall = fake.order.findIndex((entry) => entry.startsWith('call:'));
    const subscriptions = fake.order.filter((entry) => entry.startsWith('on:'));
    expect(subscriptions).toEqual([
      'on:jobs.changed',
      'on:jobs.progress',
      'on:jobs.queue',
      'on:queue.control',
      'on:library.curated',
      'on:library.importProgress',
      'on:library.rereadProgress',
      'on:jobs.removed',
    ]);
    expect(fake.order.slice(0, firstCall)).toEqual(subscriptions);
  });

  it('the first page goes out alone; the queue, stats and settings wait for it', async () => {
    const { fake, firstPage } = setup();
    await flush();
    expect(fake.calls.map((c) => c.channel)).toEqual(['jobs.list']);
    firstPage.resolve({ items: [], nextCursor: null });
    await flush();
    const channels = fake.calls.map((c) => c.channel);
    expect(channels[0]).toBe('jobs.list');
    expect(channels.slice(1)).toEqual(
      expect.arrayContaining(['jobs.list', 'jobs.stats', 'settings.get', 'providers.list']),
    );
  });

  it('an event during the first fetch is neither lost nor applied twice', async () => {
    const { fake, store, firstPage } = setup();
    const old = makeJob({ createdAt: 1 });
    const during = makeJob({ createdAt: 2 });
    fake.emit('jobs.changed', { job: during });
    fake.emit('jobs.changed', { job: during });
    firstPage.resolve({ items: [old], nextCursor: null });
    await flush();
    expect(store.getState().jobs.order).toEqual([during.id, old.id]);
    expect(store.getState().historyState).toBe('ready');
  });

  it('refetches the first page after the event stream reconnects, and tracks online state', async () => {
    let pages = 0;
    const job = makeJob();
    const { fake, store } = setup(async (query) => {
      if (query.status === undefined) pages += 1;
      return { items: query.status === undefined ? [job] : [], nextCursor: null };
    });
    await flush();
    expect(pages).toBe(1);
    fake.setOnline(false);
    expect(store.getState().online).toBe(false);
    fake.reconnect();
    fake.setOnline(true);
    await flush();
    expect(pages).toBe(2);
    expect(store.getState().online).toBe(true);
  });

  it('progress ticks land in the live slice and a failing provider raises the banner until a success', async () => {
    const { fake, store, firstPage } = setup();
    firstPage.resolve({ items: [], nextCursor: null });
    await flush();
    const job = makeJob({ status: 'running', provider: 'a1111', updatedAt: 1 });
    fake.emit('jobs.changed', { job });
    fake.emit('jobs.progress', { id: job.id, stage: 'sampling', fraction: 0.25, step: 5, steps: 20, partialImages: 0 });
    expect(store.getState().jobs.progress[job.id]?.step).toBe(5);
    fake.emit('jobs.changed', {
      job: {
        ...job,
        status: 'failed',
        updatedAt: 2,
        error: { code: 'provider_unavailable', message: 'A1111 is not reachable at http://127.0.0.1:7860.' },
      },
    });
    expect(store.getState().providerDown.a1111).toContain('not reachable');
    fake.emit('jobs.changed', { job: { ...makeJob({ provider: 'a1111' }), status: 'succeeded' } });
    expect(store.getState().providerDown.a1111).toBeUndefined();
  });

  it('a slow answer to an older search never replaces the newer one', async () => {
    const slow = deferred<ListPage>();
    const fast = deferred<ListPage>();
    const a = makeJob({ prompt: 'castle' });
    const b = makeJob({ prompt: 'castle moat' });
    const { store } = setup(async (query) => {
      if (query.status !== undefined) return { items: [], nextCursor: null };
      if (query.search === 'castle') return slow.promise;
      if (query.search === 'castle moat') return fast.promise;
      return { items: [], nextCursor: null };
    });
    await flush();
    store.getState().setFilters({ search: 'castle' });
    store.getState().setFilters({ search: 'castle moat' });
    fast.resolve({ items: [b], nextCursor: null });
    await flush();
    slow.resolve({ items: [a, b], nextCursor: null });
    await flush();
    expect(store.getState().jobs.order).toEqual([b.id]);
  });

  it('a queue held up by the disk comes from the stats, then from each jobs.queue event', async () => {
    const waiting = {
      for: 'disk_space' as const,
      message: 'The disk is full, so Atelier could not save this change.',
      since: 5,
    };
    const fake = fakeApi({
      'jobs.list': async () => ({ items: [], nextCursor: null }),
      'jobs.stats': async () => ({ ...emptyStats, queue: { waiting } }),
      'settings.get': async () => ({
        concurrency: { global: 1 },
        retention: { trashAutoEmptyDays: 30, maxJobs: null, maxBytes: null, maxAgeDays: null },
        theme: 'system',
        providers: {},
        library: { xmpSidecars: false },
        dataDir: '/d',
      }),
      'providers.list': async () => ({ providers: [] }),
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    wireEvents(store, fake.api, { setTimeout: () => undefined, clearTimeout: () => undefined });
    await flush();
    expect(store.getState().queueWaiting).toEqual(waiting);
    fake.emit('jobs.queue', { waiting: null });
    expect(store.getState().queueWaiting).toBeNull();
    fake.emit('jobs.queue', { waiting: { ...waiting, for: 'library_disk' } });
    expect(store.getState().queueWaiting?.for).toBe('library_disk');
  });

  it('unwiring removes every listener', () => {
    const { fake, unwire } = setup();
    unwire();
    expect(fake.listenerCount('jobs.changed')).toBe(0);
    expect(fake.listenerCount('jobs.progress')).toBe(0);
  });
});

describe('store actions', () => {
  it('submit reuses the idempotency key for the same composed request until it succeeds', async () => {
    const submitted = deferred<unknown>();
    const keys: string[] = [];
    const job = { ...makeJob({ status: 'queued' }), request: {}, cancelRequested: false, events: [] };
    const fake = fakeApi({
      'jobs.submit': (input) => {
        keys.push((input as { idempotencyKey: string }).idempotencyKey);
        return keys.length === 1
          ? Promise.reject(new AppError('provider_unavailable', 'Atelier cannot be reached.'))
          : submitted.promise;
      },
    });
    let n = 0;
    const store = createAppStore({ api: fake.api, makeKey: () => `key-${++n}`, now: () => 0 });
    store.getState().updateDraft({ prompt: 'a fox in snow' });
    await store.getState().submit(); // fails: network
    expect(store.getState().toasts.at(-1)?.message).toBe('Atelier cannot be reached.');
    const second = store.getState().submit(); // retry of the same request
    void store.getState().submit(); // double click while in flight: ignored, same key kept
    submitted.resolve({ job, created: true });
    await second;
    expect(keys).toEqual(['key-1', 'key-1']);
    expect(store.getState().jobs.liveIds).toEqual([job.id]);
    // A new click after success is a new request.
    store.getState().updateDraft({ prompt: 'a fox in snow' });
    expect(store.getState().pendingSubmit).toBeNull();
  });

  it('a double click on Generate is one job: a press landing after the first was queued, or while it is on its way', async () => {
    const job = { ...makeJob({ status: 'queued' }), request: {}, cancelRequested: false, events: [] };
    const answered = deferred<unknown>();
    const keys: string[] = [];
    const fake = fakeApi({
      'jobs.submit': (input) => {
        keys.push((input as { idempotencyKey: string }).idempotencyKey);
        return keys.length === 1 ? answered.promise : Promise.resolve({ job, created: true });
      },
    });
    let n = 0;
    const store = createAppStore({ api: fake.api, makeKey: () => `key-${++n}`, now: () => 0 });
    store.getState().updateDraft({ prompt: 'a heron at dawn' });
    const first = store.getState().submit({ at: 1_000 });
    // Still before the first's first await: the flag is already up, so this press is the same one.
    void store.getState().submit({ at: 1_050 });
    answered.resolve({ job, created: true });
    await first;
    // The host answered fast: the second click of the pair lands after the job is queued, and is still the same press.
    await store.getState().submit({ at: 1_250 });
    expect(keys).toEqual(['key-1']);
    // Pressed again later (or for another prompt) it is a new job.
    await store.getState().submit({ at: 1_000 + DOUBLE_PRESS_MS });
    store.getState().updateDraft({ prompt: 'a heron at dusk' });
    await store.getState().submit({ at: 1_000 + DOUBLE_PRESS_MS + 10 });
    expect(keys).toEqual(['key-1', 'key-2', 'key-3']);
  });

  it('a changed prompt gets a new key; validation errors appear per field without a call', async () => {
    const fake = fakeApi({
      'jobs.submit': () =>
        Promise.reject(
          new AppError('invalid_request', 'Width must be at least 64.', {
            details: { fields: { width: 'Width must be at least 64.' } },
          }),
        ),
    });
    let n = 0;
    const store = createAppStore({ api: fake.api, makeKey: () => `key-${++n}`, now: () => 0 });
    await store.getState().submit();
    expect(store.getState().fieldErrors.prompt).toBe('Write a prompt.');
    expect(fake.calls).toHaveLength(0);
    store.getState().updateDraft({ prompt: 'one' });
    expect(store.getState().fieldErrors.prompt).toBeUndefined();
    await store.getState().submit();
    expect(store.getState().fieldErrors.width).toBe('Width must be at least 64.');
    store.getState().updateDraft({ prompt: 'two' });
    await store.getState().submit();
    const sent = fake.calls.map((c) => (c.input as { idempotencyKey: string }).idempotencyKey);
    expect(sent).toEqual(['key-1', 'key-2']);
  });

  it('trash shows an Undo toast that restores exactly those jobs', async () => {
    const fake = fakeApi({ 'jobs.trash': async () => ({ updated: 2 }), 'jobs.restore': async () => ({ updated: 2 }) });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    const ids = [makeJob().id, makeJob().id];
    await store.getState().trashJobs(ids);
    const toast = store.getState().toasts.at(-1)!;
    expect(toast.message).toBe('Moved 2 jobs to Trash.');
    toast.action?.run();
    await flush();
    expect(fake.calls.at(-1)).toEqual({ channel: 'jobs.restore', input: { ids } });
  });
});
