import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JobSummary, ListQuery } from '../../../../shared/contract';
import { DEFAULT_FILTERS, type Filters } from '../../../../renderer/src/store/filters';
import * as model from '../../../../renderer/src/store/jobs-model';
import { createAppStore } from '../../../../renderer/src/store/store';
import { emptyStats, fakeApi, flush, makeJob } from '../helpers';

const SUCCEEDED: Filters = { ...DEFAULT_FILTERS, status: ['succeeded'] };
const firstPage = (items: JobSummary[]) => ({ items, nextCursor: null });

describe('new work under a filter: the model', () => {
  it('a job started that the filters hide is pinned; one the grid shows, an import or old work found later is not', () => {
    const shown = makeJob({ status: 'succeeded' });
    let data = model.applyFirstPage(model.EMPTY_JOBS, firstPage([shown]), SUCCEEDED);
    const started = makeJob({ status: 'queued' });
    data = model.applyJobChanged(data, started, SUCCEEDED);
    expect(data.order).toEqual([shown.id]);
    expect(data.pinned).toEqual([started.id]);

    const visible = model.applyJobChanged(data, makeJob({ status: 'succeeded' }), SUCCEEDED);
    expect(visible.pinned).toEqual([started.id]);
    const imported = model.applyJobChanged(data, makeJob({ status: 'queued', source: 'a1111' }), SUCCEEDED);
    expect(imported.pinned).toEqual([started.id]);
    const failedLater = model.applyJobChanged(data, makeJob({ status: 'failed' }), SUCCEEDED);
    expect(failedLater.pinned).toEqual([started.id]);
    // The same job again (its next event) is not pinned twice.
    expect(
      model.applyJobChanged(data, { ...started, status: 'running', updatedAt: started.updatedAt + 1 }, SUCCEEDED)
        .pinned,
    ).toEqual([started.id]);
  });

  it('it leaves the pin once the grid shows it, when it goes to the trash or is purged, and when dismissed', () => {
    let data = model.applyFirstPage(model.EMPTY_JOBS, firstPage([]), SUCCEEDED);
    const a = makeJob({ status: 'queued' });
    const b = makeJob({ status: 'queued' });
    const c = makeJob({ status: 'running' });
    for (const job of [a, b, c]) data = model.applyJobChanged(data, job, SUCCEEDED);
    expect(data.pinned).toEqual([c.id, b.id, a.id]);
    // Finished, it matches "Succeeded": the grid has it now, in its place.
    data = model.applyJobChanged(data, { ...a, status: 'succeeded', updatedAt: a.updatedAt + 5 }, SUCCEEDED);
    expect(data.order).toEqual([a.id]);
    expect(data.pinned).toEqual([c.id, b.id]);
    data = model.applyJobChanged(data, { ...b, trashedAt: 9, updatedAt: b.updatedAt + 5 }, SUCCEEDED);
    expect(data.pinned).toEqual([c.id]);
    expect(model.applyRemoved(data, [c.id]).pinned).toEqual([]);
    expect(model.dismissPinned(data, c.id).pinned).toEqual([]);
    expect(model.clearPinned(data).pinned).toEqual([]);
  });

  it('a search the client cannot judge, or another order than newest first, pins new work too', () => {
    const typed: Filters = { ...DEFAULT_FILTERS, search: 'model:flux' };
    const oldest: Filters = { ...DEFAULT_FILTERS, sort: 'oldest' };
    for (const filters of [typed, oldest]) {
      const job = makeJob({ status: 'queued' });
      const data = model.applyJobChanged(model.applyFirstPage(model.EMPTY_JOBS, firstPage([]), filters), job, filters);
      expect(data.order).toEqual([]);
      expect(data.pinned).toEqual([job.id]);
      // The next page for this view shows it: the grid has it, the pin lets go.
      expect(model.applyFirstPage(data, firstPage([job]), filters).pinned).toEqual([]);
    }
  });

  it('however many start, at most MAX_PINNED are pinned, newest first, each once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: model.MAX_PINNED * 2 }), (n) => {
        let data = model.applyFirstPage(model.EMPTY_JOBS, firstPage([]), SUCCEEDED);
        const jobs = Array.from({ length: n }, () => makeJob({ status: 'queued' }));
        data = model.applyJobsChanged(data, jobs, SUCCEEDED);
        const want = jobs
          .map((j) => j.id)
          .reverse()
          .slice(0, model.MAX_PINNED);
        expect(data.pinned).toEqual(want);
      }),
      { numRuns: 20 },
    );
  });
});

describe('new work under a filter: the store', () => {
  function filteredStore() {
    const lists: ListQuery[] = [];
    const fake = fakeApi({
      'jobs.list': async (input) => {
        lists.push(input as ListQuery);
        return { items: (input as ListQuery).status === undefined ? [started] : [], nextCursor: null };
      },
      'jobs.stats': async () => emptyStats,
      'jobs.count': async () => ({ active: 1, favorites: 0, trash: 0, images: 1, capped: [] }),
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    const started = makeJob({ status: 'queued', prompt: 'a kite over the bay' });
    return { store, lists, started };
  }

  it('the started toast offers Show: it clears the filters and search, and the grid shows and focuses the job', async () => {
    const { store, lists, started } = filteredStore();
    store.getState().setFilters({ status: ['succeeded'], search: 'heron' });
    await flush();
    store.getState().applyJobChanged(started);
    expect(store.getState().jobs.pinned).toEqual([started.id]);
    const toast = store.getState().toasts.at(-1)!;
    expect(toast.message).toBe('Started “a kite over the bay”: not in this view, so it is pinned above the grid.');
    expect(toast.action?.label).toBe('Show');

    toast.action!.run();
    await flush();
    await flush();
    const state = store.getState();
    expect(state.filters).toEqual(DEFAULT_FILTERS);
    expect(lists.at(-1)).toMatchObject({ view: 'active' });
    expect(lists.at(-1)?.status).toBeUndefined();
    expect(lists.at(-1)?.search).toBeUndefined();
    expect(state.jobs.order).toEqual([started.id]);
    expect(state.jobs.pinned).toEqual([]);
    expect(state.focusedJobId).toBe(started.id);
    expect(state.revealed?.id).toBe(started.id);
  });

  it('the pin stays until the filters change or it is dismissed, and only new pins are announced', async () => {
    const { store, started } = filteredStore();
    store.getState().setFilters({ status: ['succeeded'] });
    await flush();
    store.getState().applyJobChanged(started);
    const toasts = store.getState().toasts.length;
    store.getState().applyJobChanged({ ...started, status: 'running', updatedAt: started.updatedAt + 1 });
    expect(store.getState().toasts).toHaveLength(toasts);
    expect(store.getState().jobs.pinned).toEqual([started.id]);
    store.getState().dismissPinned(started.id);
    expect(store.getState().jobs.pinned).toEqual([]);

    const next = makeJob({ status: 'queued' });
    store.getState().applyJobChanged(next);
    expect(store.getState().jobs.pinned).toEqual([next.id]);
    store.getState().setFilters({ status: ['failed'] });
    expect(store.getState().jobs.pinned).toEqual([]);
  });
});
