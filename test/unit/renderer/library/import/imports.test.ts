import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ImportProgressEvent, ImportSummary } from '../../../../../shared/contract';
import {
  applyImportList,
  applyImportProgress,
  describeImport,
  EMPTY_IMPORTS,
  formatRate,
  parsePaths,
  processed,
  visibleImportIds,
} from '../../../../../renderer/src/library/import/imports-model';
import { createAppStore } from '../../../../../renderer/src/store/store';
import {
  IMPORTED_BATCH_MS,
  IMPORT_QUIET_MS,
  STATS_MAX_WAIT_MS,
  wireEvents,
} from '../../../../../renderer/src/store/wire-events';
import { emptyStats, fakeApi, flush, idFor, makeJob } from '../../helpers';

const ID = idFor(900);

function tick(over: Partial<ImportProgressEvent> = {}): ImportProgressEvent {
  return {
    id: ID,
    status: 'running',
    scanning: false,
    found: 100,
    imported: 10,
    duplicates: 0,
    skipped: 0,
    failed: 0,
    ...over,
  };
}

function summary(over: Partial<ImportSummary> = {}): ImportSummary {
  return {
    ...tick(),
    paths: ['/home/me/outputs'],
    mode: 'link',
    watch: false,
    createdAt: 1_000,
    updatedAt: 1_000,
    problems: [],
    ...over,
  };
}

describe('import progress in the store', () => {
  it('an event adds an unknown import on top and then replaces its counts; a finished one drops rate and time left', () => {
    let data = applyImportProgress(EMPTY_IMPORTS, tick({ id: idFor(1) }));
    data = applyImportProgress(data, tick({ ratePerSecond: 40, etaMs: 2_000 }));
    expect(data.order).toEqual([ID, idFor(1)]);
    data = applyImportProgress(data, tick({ imported: 60, ratePerSecond: 42, etaMs: 900 }));
    expect(data.byId[ID]).toMatchObject({ imported: 60, ratePerSecond: 42, etaMs: 900 });
    data = applyImportProgress(data, tick({ status: 'completed', imported: 100 }));
    expect(data.byId[ID]!.ratePerSecond).toBeUndefined();
    expect(data.byId[ID]!.etaMs).toBeUndefined();
  });

  it('a list fetched before the latest event never takes the counts back, but brings paths and problems', () => {
    let data = applyImportProgress(EMPTY_IMPORTS, tick({ imported: 80 }));
    data = applyImportList(data, [
      summary({
        imported: 30,
        problems: [{ path: '/home/me/outputs/x.md', reason: 'Not an image', status: 'skipped' }],
      }),
    ]);
    expect(data.byId[ID]).toMatchObject({
      imported: 80,
      paths: ['/home/me/outputs'],
      problems: [{ path: '/home/me/outputs/x.md' }],
    });
    data = applyImportProgress(data, tick({ status: 'completed', imported: 100 }));
    data = applyImportList(data, [summary({ status: 'running', imported: 100 })]);
    expect(data.byId[ID]!.status).toBe('completed');
    data = applyImportList(data, [summary({ status: 'completed', imported: 100, finishedAt: 5_000 })]);
    expect(data.byId[ID]).toMatchObject({ status: 'completed', finishedAt: 5_000 });
  });

  it('whatever mix of events and older fetched snapshots arrives, the counts shown are the furthest along delivered', () => {
    const step = fc.record({ imported: fc.nat(50), skipped: fc.nat(5), fetched: fc.boolean() });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 20 }), (steps) => {
        let data = EMPTY_IMPORTS;
        let best = 0;
        let running = { imported: 0, skipped: 0 };
        for (const s of steps) {
          running = { imported: running.imported + s.imported, skipped: running.skipped + s.skipped };
          // Events arrive in order and are current; a fetch answers with a snapshot from a moment before.
          const delivered = s.fetched ? { imported: Math.floor(running.imported / 2), skipped: 0 } : running;
          best = Math.max(best, delivered.imported + delivered.skipped);
          data = s.fetched ? applyImportList(data, [summary(delivered)]) : applyImportProgress(data, tick(delivered));
        }
        expect(processed(data.byId[ID]!)).toBe(best);
      }),
    );
  });

  it('the panel shows running and paused imports, and finished ones from this session until dismissed', () => {
    let data = applyImportList(EMPTY_IMPORTS, [
      summary({ id: idFor(1), status: 'completed', finishedAt: 500, createdAt: 100 }),
      summary({ id: idFor(2), status: 'paused', createdAt: 200 }),
      summary({ id: idFor(3), status: 'completed', finishedAt: 2_000, createdAt: 300 }),
    ]);
    data = applyImportProgress(data, tick({ id: idFor(4), status: 'cancelled' }));
    expect(visibleImportIds(data, {}, 1_000)).toEqual([idFor(4), idFor(3), idFor(2)]);
    expect(visibleImportIds(data, { [idFor(3)]: true, [idFor(2)]: true }, 1_000)).toEqual([idFor(4), idFor(2)]);
  });

  it('says what an import is doing in words, and its rate', () => {
    expect(describeImport(tick({ scanning: true, found: 1_200 }))).toBe('Looking for images… 1200 found');
    expect(describeImport(tick({ imported: 10, skipped: 2, duplicates: 3, failed: 1 }))).toBe('Importing: 16 of 100');
    expect(describeImport(tick({ status: 'paused', imported: 40 }))).toBe('Paused at 40 of 100');
    expect(describeImport(tick({ status: 'paused', scanning: true, found: 12 }))).toBe(
      'Paused while looking: 12 found',
    );
    expect(describeImport(tick({ status: 'paused', found: 0, imported: 0 }))).toBe('Paused');
    expect(describeImport(tick({ status: 'completed', imported: 97 }))).toBe('Done: 97 imported');
    expect(formatRate(412.4)).toBe('412 files/s');
    expect(formatRate(2.5)).toBe('2.5 files/s');
    expect(formatRate(0)).toBeNull();
  });

  it('reads typed paths one a line, trimmed, without blanks or repeats', () => {
    expect(parsePaths('  /a/b \n\n/c\r\n/a/b\n   ')).toEqual(['/a/b', '/c']);
  });
});

describe('import events wired into the store', () => {
  function setup(imports: () => ImportSummary[]) {
    const fake = fakeApi({
      'jobs.list': async () => ({ items: [], nextCursor: null }),
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
      'library.imports': async () => ({ items: imports() }),
      'library.folders': async () => ({ items: [] }),
      'library.pauseImport': async () => ({ import: summary({ status: 'paused', imported: 12 }) }),
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    wireEvents(store, fake.api, { setTimeout: () => 0, clearTimeout: () => undefined });
    return { fake, store, count: (channel: string) => fake.calls.filter((c) => c.channel === channel).length };
  }

  it("an import's progress lands in the store; an unknown import is fetched for its paths; its end refreshes the folders", async () => {
    let listed: ImportSummary[] = [];
    const { fake, store, count } = setup(() => listed);
    await flush();
    const atStart = count('library.imports');
    expect(atStart).toBe(1);
    listed = [summary({ imported: 5 })];
    fake.emit('library.importProgress', tick({ imported: 7, ratePerSecond: 30, etaMs: 3_000 }));
    expect(store.getState().imports.byId[ID]).toMatchObject({ imported: 7, ratePerSecond: 30 });
    await flush();
    expect(count('library.imports')).toBe(2);
    expect(store.getState().imports.byId[ID]).toMatchObject({ imported: 7, paths: ['/home/me/outputs'] });
    fake.emit('library.importProgress', tick({ imported: 9 }));
    expect(count('library.imports')).toBe(2);
    expect(count('library.folders')).toBe(0);
    fake.emit('library.importProgress', tick({ status: 'completed', imported: 100 }));
    await flush();
    expect(count('library.folders')).toBe(1);
    expect(count('library.imports')).toBe(3);
  });

  it('a running import that goes quiet (a missed event) is asked for again, until it has ended', async () => {
    const timers: { fn: () => void; ms: number }[] = [];
    let listed = [summary({ imported: 20 })];
    const fake = fakeApi({
      'jobs.list': async () => ({ items: [], nextCursor: null }),
      'jobs.stats': async () => emptyStats,
      'library.imports': async () => ({ items: listed }),
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    wireEvents(store, fake.api, { setTimeout: (fn, ms) => timers.push({ fn, ms }), clearTimeout: () => undefined });
    await flush();
    await flush();
    const quiet = () => timers.filter((t) => t.ms === IMPORT_QUIET_MS);
    expect(quiet()).toHaveLength(1);
    const asked = fake.calls.filter((c) => c.channel === 'library.imports').length;
    listed = [summary({ status: 'completed', imported: 100, finishedAt: 9 })];
    quiet()[0]!.fn();
    await flush();
    expect(fake.calls.filter((c) => c.channel === 'library.imports').length).toBe(asked + 1);
    expect(store.getState().imports.byId[ID]!.status).toBe('completed');
    // Ended: nothing more is asked for.
    expect(quiet()).toHaveLength(1);
  });

  it('the counts in the tabs follow a steady stream of imported jobs, not only after it stops', async () => {
    const fake = fakeApi({
      'jobs.list': async () => ({ items: [], nextCursor: null }),
      'jobs.stats': async () => emptyStats,
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    let clock = 0;
    const pending = new Map<number, { fn: () => void; at: number }>();
    let next = 0;
    wireEvents(store, fake.api, {
      now: () => clock,
      setTimeout: (fn) => (pending.set(++next, { fn, at: clock }), next),
      clearTimeout: (h) => void pending.delete(h as number),
    });
    await flush();
    const asked = fake.calls.filter((c) => c.channel === 'jobs.stats').length;
    // An event every 100 ms: each would put a plain debounce off again, to 400 ms after the last one.
    for (clock = 0; clock <= STATS_MAX_WAIT_MS + 1_000; clock += 100) fake.emit('jobs.changed', { job: makeJob() });
    const left = [...pending.values()];
    expect(left).toHaveLength(1);
    expect(left[0]!.at).toBeLessThan(STATS_MAX_WAIT_MS);
    left[0]!.fn();
    await flush();
    expect(fake.calls.filter((c) => c.channel === 'jobs.stats').length).toBe(asked + 1);
  });

  it("imported jobs arriving by the hundred land in the grid together, in one update; Atelier's own at once", async () => {
    const fake = fakeApi({
      'jobs.list': async () => ({ items: [], nextCursor: null }),
      'jobs.stats': async () => emptyStats,
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    const timers: { fn: () => void; ms: number }[] = [];
    wireEvents(store, fake.api, { setTimeout: (fn, ms) => timers.push({ fn, ms }), clearTimeout: () => undefined });
    await flush();
    await flush();
    let updates = 0;
    store.subscribe((state, previous) => {
      if (state.jobs.order !== previous.jobs.order) updates += 1;
    });
    const imported = Array.from({ length: 200 }, () => makeJob({ source: 'comfyui' }));
    for (const job of imported) fake.emit('jobs.changed', { job });
    expect(store.getState().jobs.order).toEqual([]);
    const batch = timers.filter((t) => t.ms === IMPORTED_BATCH_MS);
    expect(batch).toHaveLength(1);
    batch[0]!.fn();
    expect(updates).toBe(1);
    expect([...store.getState().jobs.order].sort()).toEqual(imported.map((j) => j.id).sort());
    const own = makeJob();
    fake.emit('jobs.changed', { job: own });
    expect(store.getState().jobs.order).toContain(own.id);
  });

  it("Pause sends the import's id and shows what the engine answered", async () => {
    const { fake, store } = setup(() => []);
    await flush();
    await store.getState().controlImport(ID, 'pause');
    expect(fake.calls.at(-1)).toEqual({ channel: 'library.pauseImport', input: { id: ID } });
    expect(store.getState().imports.byId[ID]).toMatchObject({ status: 'paused', imported: 12 });
  });

  it("the menu's Import Folder… opens the import dialog", async () => {
    let menu: ((command: 'import') => void) | undefined;
    const fake = fakeApi({
      'jobs.list': async () => ({ items: [], nextCursor: null }),
      'jobs.stats': async () => emptyStats,
    });
    fake.api.onMenuCommand = (listener) => {
      menu = listener;
      return () => undefined;
    };
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    wireEvents(store, fake.api, { setTimeout: () => 0, clearTimeout: () => undefined });
    expect(store.getState().importDialog).toBeNull();
    menu!('import');
    expect(store.getState().importDialog).toEqual({ paths: [], note: null });
  });
});

describe('re-reading settings from the store', () => {
  const progress = { state: 'running' as const, left: 40, imported: 100, done: 60, failed: 0 };

  it("the re-read's progress lands in the store from its events, and its state is asked for with the imports", async () => {
    const fake = fakeApi({
      'jobs.list': async () => ({ items: [], nextCursor: null }),
      'jobs.stats': async () => emptyStats,
      'library.imports': async () => ({ items: [] }),
      'library.rereadStatus': async () => ({ ...progress, state: 'paused' as const }),
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    wireEvents(store, fake.api, { setTimeout: () => 0, clearTimeout: () => undefined });
    await flush();
    expect(store.getState().reread).toMatchObject({ state: 'paused', left: 40 });
    fake.emit('library.rereadProgress', { ...progress, left: 0, done: 100, state: 'idle' });
    expect(store.getState().reread).toMatchObject({ state: 'idle', left: 0, done: 100 });
  });

  it('Re-read settings sends the picked images (or the current search) and says how many files it will read', async () => {
    const fake = fakeApi({
      'library.reread': async (input) => ({ marked: (input as { ids?: string[] }).ids?.length ?? 7 }),
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    await store.getState().rereadImages({ images: { imageIds: [idFor(1), idFor(2)], jobIds: [idFor(3)] } });
    expect(fake.calls.at(-1)).toMatchObject({ channel: 'library.reread', input: { ids: [idFor(1), idFor(2)] } });
    expect(store.getState().toasts.at(-1)?.message).toBe('Re-reading the settings of 2 files.');
    store.getState().setFilters({ search: 'model:sdxl' });
    await store.getState().rereadImages({ query: true });
    expect(fake.calls.at(-1)).toMatchObject({ channel: 'library.reread', input: { query: { search: 'model:sdxl' } } });
    expect(store.getState().toasts.at(-1)?.message).toBe('Re-reading the settings of 7 files.');
  });
});
