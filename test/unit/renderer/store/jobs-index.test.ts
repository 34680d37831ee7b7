import { describe, expect, it } from 'vitest';
import { shallow } from 'zustand/shallow';
import type { JobSummary } from '../../../../shared/contract';
import { selectJobIndex, type JobIndex } from '../../../../renderer/src/store/jobs-model';
import { createAppStore } from '../../../../renderer/src/store/store';
import { fakeApi, makeJob } from '../helpers';

/**
 * What a component does with `useJobIndex()` (useShallow over selectJobIndex): it renders again only when the selected
 * value is no longer shallow-equal to the last one, and reads the index as it was handed then.
 */
function subscribeLikeAComponent(store: ReturnType<typeof createAppStore>) {
  let selected: JobIndex = selectJobIndex(store.getState().jobs);
  const rendered = { renders: 0, ids: Object.keys(selected.byId) };
  store.subscribe((state) => {
    const next = selectJobIndex(state.jobs);
    if (shallow(selected, next)) return;
    selected = next;
    rendered.renders += 1;
    rendered.ids = Object.keys(next.byId);
  });
  return rendered;
}

describe('the jobs index as its subscribers see it', () => {
  it('a component subscribed to the jobs index sees the jobs a next page adds to byId in place', async () => {
    const first: JobSummary[] = [makeJob({ createdAt: 40 }), makeJob({ createdAt: 30 })];
    const second: JobSummary[] = [makeJob({ createdAt: 20 }), makeJob({ createdAt: 10 })];
    const pages = [
      { items: first, nextCursor: 'c1' },
      { items: second, nextCursor: null },
    ];
    const { api } = fakeApi({
      'jobs.list': async () => pages.shift(),
      'jobs.count': async () => new Promise(() => undefined),
    });
    const store = createAppStore({ api, makeKey: () => 'k', now: () => 0 });
    await store.getState().loadFirstPage();
    const before = store.getState().jobs.byId;
    const component = subscribeLikeAComponent(store);

    await store.getState().loadMore();

    // The page went into the same object (no copy of a long index per page): only the version can say so.
    expect(store.getState().jobs.byId).toBe(before);
    expect(component.renders).toBe(1);
    expect(component.ids.sort()).toEqual([...first, ...second].map((job) => job.id).sort());
  });

  it('the version moves only when byId gains a job in place', async () => {
    const job = makeJob({ createdAt: 5 });
    const pages = [
      { items: [job], nextCursor: 'c1' },
      { items: [job], nextCursor: null },
    ];
    const { api } = fakeApi({
      'jobs.list': async () => pages.shift(),
      'jobs.count': async () => new Promise(() => undefined),
    });
    const store = createAppStore({ api, makeKey: () => 'k', now: () => 0 });
    await store.getState().loadFirstPage();
    const version = store.getState().jobs.byIdVersion;
    await store.getState().loadMore();
    expect(store.getState().jobs.byIdVersion).toBe(version);
  });
});
