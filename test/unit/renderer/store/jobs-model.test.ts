import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JobSummary } from '../../../../shared/contract';
import {
  DEFAULT_FILTERS,
  belongsInGrid,
  compareNewestFirst,
  matchesFilters,
  type Filters,
} from '../../../../renderer/src/store/filters';
import * as model from '../../../../renderer/src/store/jobs-model';
import { idFor, makeJob } from '../helpers';

const F: Filters = DEFAULT_FILTERS;

function page(items: JobSummary[], nextCursor: string | null = null) {
  return { items, nextCursor };
}

describe('jobs model: events and fetches reconciled by updatedAt', () => {
  it('an event that arrives while the first page is in flight is kept, even if the snapshot predates it', () => {
    const old = makeJob({ createdAt: 1000, updatedAt: 1000 });
    let data = model.beginFirstPage(model.EMPTY_JOBS);
    const fresh = makeJob({ createdAt: 2000, updatedAt: 2500 });
    data = model.applyJobChanged(data, fresh, F);
    data = model.applyFirstPage(data, page([old]), F);
    expect(data.order).toEqual([fresh.id, old.id]);
  });

  it('a stale page never overwrites a newer event, and an old or repeated event changes nothing', () => {
    const v1 = makeJob({ updatedAt: 10 });
    const v2 = { ...v1, favorite: true, updatedAt: 20 };
    let data = model.beginFirstPage(model.EMPTY_JOBS);
    data = model.applyJobChanged(data, v2, F);
    data = model.applyFirstPage(data, page([v1]), F);
    expect(data.byId[v1.id]).toEqual(v2);
    const again = model.applyJobChanged(data, v2, F);
    expect(again).toBe(data);
    expect(model.applyJobChanged(data, v1, F)).toBe(data);
  });

  it('a job trashed by event leaves the grid; restored, it comes back in its place', () => {
    const a = makeJob({ createdAt: 1, updatedAt: 1 });
    const b = makeJob({ createdAt: 2, updatedAt: 2 });
    const c = makeJob({ createdAt: 3, updatedAt: 3 });
    let data = model.applyFirstPage(model.beginFirstPage(model.EMPTY_JOBS), page([c, b, a]), F);
    data = model.applyJobChanged(data, { ...b, trashedAt: 5, updatedAt: 5 }, F);
    expect(data.order).toEqual([c.id, a.id]);
    data = model.applyJobChanged(data, { ...b, trashedAt: null, updatedAt: 6 }, F);
    expect(data.order).toEqual([c.id, b.id, a.id]);
  });

  it('queued and running jobs are cards in the grid from the start, and stay in their place when they finish', () => {
    const older = makeJob({ status: 'succeeded', createdAt: 1, updatedAt: 1 });
    const job = makeJob({ status: 'queued', createdAt: 2, updatedAt: 1 });
    let data = model.applyJobChanged(model.EMPTY_JOBS, older, F);
    data = model.applyJobChanged(data, job, F);
    expect(data.liveIds).toEqual([job.id]);
    expect(data.order).toEqual([job.id, older.id]);
    data = model.applyProgress(data, { id: job.id, stage: 'sampling', fraction: 0.5, partialImages: 1 });
    expect(data.progress[job.id]?.fraction).toBe(0.5);
    data = model.applyJobChanged(data, { ...job, status: 'succeeded', updatedAt: 2 }, F);
    expect(data.liveIds).toEqual([]);
    expect(data.progress[job.id]).toBeUndefined();
    expect(data.order).toEqual([job.id, older.id]);
    // A late tick for a finished job is dropped.
    expect(model.applyProgress(data, { id: job.id, stage: 'sampling', partialImages: 1 })).toBe(data);
  });

  it('the queue lists the oldest job first', () => {
    const first = makeJob({ status: 'running', createdAt: 1 });
    const second = makeJob({ status: 'queued', createdAt: 2 });
    let data = model.applyJobChanged(model.EMPTY_JOBS, second, F);
    data = model.applyJobChanged(data, first, F);
    expect(data.liveIds).toEqual([first.id, second.id]);
    data = model.applyLivePage(model.EMPTY_JOBS, [second, first]);
    expect(data.liveIds).toEqual([first.id, second.id]);
  });

  it('a purged job never comes back from a page fetched before the purge', () => {
    const job = makeJob();
    let data = model.beginFirstPage(model.EMPTY_JOBS);
    data = model.applyRemoved(data, [job.id]);
    data = model.applyFirstPage(data, page([job]), F);
    expect(data.order).toEqual([]);
    expect(data.byId[job.id]).toBeUndefined();
    expect(model.applyJobChanged(data, { ...job, updatedAt: job.updatedAt + 1 }, F)).toBe(data);
  });

  it('an arrival beyond the loaded range waits for its page; infinite scroll appends without duplicates', () => {
    const items = [5, 4, 3].map((n) => makeJob({ createdAt: n * 100, updatedAt: n * 100 }));
    let data = model.applyFirstPage(model.beginFirstPage(model.EMPTY_JOBS), page(items, 'c1'), F);
    const older = makeJob({ createdAt: 50, updatedAt: 900 });
    data = model.applyJobChanged(data, older, F);
    expect(data.order).not.toContain(older.id);
    data = model.applyNextPage(data, page([items[2]!, older], null), F);
    expect(data.order).toEqual([...items.map((j) => j.id), older.id]);
    expect(data.nextCursor).toBeNull();
  });

  it('holds new arrivals while the person is scrolled down, and shows them on release', () => {
    const a = makeJob({ createdAt: 1 });
    let data = model.applyFirstPage(model.beginFirstPage(model.EMPTY_JOBS), page([a]), F);
    data = model.setHoldArrivals(data, true);
    const b = makeJob({ createdAt: 2 });
    data = model.applyJobChanged(data, b, F);
    expect(data.order).toEqual([a.id]);
    expect(data.pendingTop).toEqual([b.id]);
    data = model.setHoldArrivals(data, false);
    expect(data.order).toEqual([b.id, a.id]);
    expect(data.pendingTop).toEqual([]);
  });

  it('filters: favorites, trash, provider, status and search all place an event-borne job correctly', () => {
    const job = makeJob({ prompt: 'A Lighthouse at dusk', provider: 'openai', favorite: true });
    expect(belongsInGrid(job, { ...F, view: 'favorites' })).toBe(true);
    expect(belongsInGrid({ ...job, favorite: false }, { ...F, view: 'favorites' })).toBe(false);
    expect(belongsInGrid(job, { ...F, view: 'trash' })).toBe(false);
    expect(belongsInGrid({ ...job, trashedAt: 1 }, { ...F, view: 'trash' })).toBe(true);
    expect(belongsInGrid(job, { ...F, provider: 'comfyui' })).toBe(false);
    expect(belongsInGrid(job, { ...F, search: 'lighthouse DUSK' })).toBe(true);
    expect(belongsInGrid(job, { ...F, search: 'harbour' })).toBe(false);
    expect(belongsInGrid({ ...job, status: 'running' }, F)).toBe(true);
    expect(belongsInGrid({ ...job, status: 'queued' }, { ...F, status: ['succeeded'] })).toBe(false);
    expect(belongsInGrid({ ...job, status: 'running' }, { ...F, status: ['running'] })).toBe(true);
  });
});

describe('jobs model: property — any interleaving of events and one fetch ends in the server state', () => {
  const versionArb = fc.record({
    job: fc.integer({ min: 0, max: 5 }),
    status: fc.constantFrom('queued', 'running', 'succeeded', 'failed', 'cancelled') as fc.Arbitrary<
      JobSummary['status']
    >,
    favorite: fc.boolean(),
    trashed: fc.boolean(),
    duplicate: fc.boolean(),
  });

  it('holds for every timeline, snapshot point and duplicate delivery', () => {
    fc.assert(
      fc.property(
        fc.array(versionArb, { minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.constantFrom<Filters>(F, { ...F, view: 'favorites' }, { ...F, view: 'trash' }),
        (timeline, aSeed, sSeed, rSeed, filters) => {
          // Server side: every timeline entry is a new version of a job.
          const versions: JobSummary[] = timeline.map((entry, t) => ({
            id: idFor(entry.job + 1),
            status: entry.status,
            createdAt: 1000 + entry.job,
            updatedAt: 10_000 + t,
            provider: 'builtin',
            prompt: `job ${entry.job}`,
            width: 64,
            height: 64,
            count: 1,
            favorite: entry.favorite,
            trashedAt: entry.trashed ? 5 : null,
            images: [],
            source: 'atelier',
          }));
          const n = versions.length;
          const a = aSeed % (n + 1);
          const s = a + (sSeed % (n + 1 - a));
          const r = s + (rSeed % (n + 1 - s));
          const latestBefore = (point: number) => {
            const latest = new Map<string, JobSummary>();
            for (const v of versions.slice(0, point)) latest.set(v.id, v);
            return [...latest.values()];
          };
          // The server filters the page itself.
          const snapshot = latestBefore(s)
            .filter((j) => matchesFilters(j, filters))
            .sort(compareNewestFirst);

          let data = model.EMPTY_JOBS;
          for (let t = 0; t <= n; t += 1) {
            if (t === a) data = model.beginFirstPage(data);
            if (t === r) data = model.applyFirstPage(data, { items: snapshot, nextCursor: null }, filters);
            if (t < n) {
              data = model.applyJobChanged(data, versions[t]!, filters);
              if (timeline[t]!.duplicate) data = model.applyJobChanged(data, versions[t]!, filters);
            }
          }
          const final = latestBefore(n);
          for (const job of final) expect(data.byId[job.id]).toEqual(job);
          const expectedOrder = final
            .filter((j) => belongsInGrid(j, filters))
            .sort(compareNewestFirst)
            .map((j) => j.id);
          expect(data.order).toEqual(expectedOrder);
          const expectedLive = final
            .filter((j) => (j.status === 'queued' || j.status === 'running') && j.trashedAt === null)
            .sort((x, y) => -compareNewestFirst(x, y))
            .map((j) => j.id);
          expect(data.liveIds).toEqual(expectedLive);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('appending pages keeps every job, adds new ones in place, and never changes a job an earlier snapshot shows', () => {
    const first = Array.from({ length: 3 }, (_, i) => makeJob({ createdAt: 100 - i }));
    const data = model.applyFirstPage(model.beginFirstPage(model.EMPTY_JOBS), page(first, 'c1'), F);
    const second = Array.from({ length: 3 }, (_, i) => makeJob({ createdAt: 50 - i }));
    const next = model.applyNextPage(data, page(second, 'c2'), F);
    expect(next.order).toEqual([...first, ...second].map((j) => j.id));
    // Only ids the index never held were added, so the index object is shared rather than copied.
    expect(next.byId).toBe(data.byId);
    expect(data.order).toEqual(first.map((j) => j.id));
    // A page that brings a newer version of a held job copies: the earlier snapshot still shows the old version.
    const changed = { ...second[0]!, favorite: true, updatedAt: second[0]!.updatedAt + 1 };
    const third = model.applyNextPage(next, page([changed, makeJob({ createdAt: 10 })], null), F);
    expect(third.byId).not.toBe(next.byId);
    expect(third.byId[changed.id]?.favorite).toBe(true);
    expect(next.byId[changed.id]?.favorite).toBe(false);
    expect(third.order).toHaveLength(7);
    // A search's first page of jobs already held at the same version writes nothing and copies nothing.
    const searched = model.applyFirstPage(model.beginFirstPage(third), page([first[1]!, changed], null), F);
    expect(searched.byId).toBe(third.byId);
    expect(searched.order).toEqual([first[1]!.id, changed.id]);
    // One newer version among them: copied, and the earlier snapshot keeps what it showed.
    const newer = { ...first[1]!, favorite: true, updatedAt: first[1]!.updatedAt + 5 };
    const refreshed = model.applyFirstPage(model.beginFirstPage(searched), page([newer], null), F);
    expect(refreshed.byId).not.toBe(searched.byId);
    expect(searched.byId[newer.id]?.favorite).toBe(false);
    // The shared empty index is never written to.
    expect(Object.keys(model.EMPTY_JOBS.byId)).toEqual([]);
    expect(model.applyNextPage(model.EMPTY_JOBS, page([makeJob()]), F).byId).not.toBe(model.EMPTY_JOBS.byId);
    expect(Object.keys(model.EMPTY_JOBS.byId)).toEqual([]);
  });
});

describe('jobs model: a burst of changes', () => {
  it('lands exactly as the same changes one by one, whatever the loaded page, the filters and the burst', () => {
    const jobArb = fc.record({
      n: fc.integer({ min: 1, max: 40 }),
      updatedAt: fc.integer({ min: 1, max: 50 }),
      favorite: fc.boolean(),
      trashed: fc.boolean(),
      status: fc.constantFrom('queued', 'succeeded', 'failed') as fc.Arbitrary<JobSummary['status']>,
    });
    const toJob = (j: {
      n: number;
      updatedAt: number;
      favorite: boolean;
      trashed: boolean;
      status: JobSummary['status'];
    }) =>
      makeJob({
        id: idFor(j.n),
        createdAt: 1000 + j.n,
        updatedAt: j.updatedAt,
        favorite: j.favorite,
        trashedAt: j.trashed ? 5 : null,
        status: j.status,
        source: 'a1111',
      });
    fc.assert(
      fc.property(
        fc.array(jobArb, { maxLength: 20 }),
        fc.boolean(),
        fc.array(jobArb, { maxLength: 30 }),
        fc.constantFrom<Filters>(F, { ...F, view: 'favorites' }, { ...F, view: 'trash' }),
        (loaded, more, burst, filters) => {
          const items = [...new Map(loaded.map((j) => [j.n, toJob(j)])).values()]
            .filter((j) => matchesFilters(j, filters))
            .sort(compareNewestFirst);
          const start = model.applyFirstPage(
            model.beginFirstPage(model.EMPTY_JOBS),
            page(items, more ? 'c' : null),
            filters,
          );
          const jobs = burst.map(toJob);
          const together = model.applyJobsChanged(start, jobs, filters);
          const oneByOne = jobs.reduce((data, job) => model.applyJobChanged(data, job, filters), start);
          expect(together.byId).toEqual(oneByOne.byId);
          expect(together.order).toEqual(oneByOne.order);
          expect(together.liveIds).toEqual(oneByOne.liveIds);
          expect(together.pendingTop).toEqual(oneByOne.pendingTop);
          // The burst copies the index once: the page it started from is left as it was.
          expect(start.byId).toEqual(
            model.applyFirstPage(model.beginFirstPage(model.EMPTY_JOBS), page(items, more ? 'c' : null), filters).byId,
          );
        },
      ),
    );
  });
});
