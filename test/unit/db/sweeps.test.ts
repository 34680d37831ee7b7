import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../../shared/ids.js';
import type { SweepRecord } from '../../../electron/db/sweeps.js';
import type { JobStore } from '../../../electron/db/types.js';
import { finished, image, open, req } from './helpers.js';

// Every statement the store runs, captured beneath it with its parameters, so its plan is the one SQLite uses.
const ran: Array<{ source: string; params: unknown[]; db: Database.Database }> = [];
const proto = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Record<
  'all' | 'get',
  (...a: unknown[]) => unknown
>;
const original = { all: proto.all, get: proto.get };
let capturing = false;
for (const method of ['all', 'get'] as const) {
  proto[method] = function (this: Database.Statement, ...params: unknown[]) {
    if (capturing) ran.push({ source: this.source, params, db: this.database });
    return original[method].apply(this, params);
  };
}
afterEach(() => {
  capturing = false;
});

function captured<T>(run: () => T): { value: T; plans: Array<{ sql: string; plan: string[] }> } {
  ran.splice(0);
  capturing = true;
  const value = run();
  capturing = false;
  return {
    value,
    plans: ran.map((r) => ({
      sql: r.source,
      plan: (r.db.prepare(`EXPLAIN QUERY PLAN ${r.source}`).all(...r.params) as Array<{ detail: string }>).map(
        (row) => row.detail,
      ),
    })),
  };
}

const record = (id: string, axes: Array<[string, number]>, createdAt = 1_000): SweepRecord => ({
  id,
  name: axes.map(([f]) => f).join(' × '),
  createdAt,
  axes: axes.map(([field, n]) => ({
    field: field as SweepRecord['axes'][number]['field'],
    values: Array.from({ length: n }, (_, i) => String(i + 1)),
  })),
  typed: axes.map(([field, n]) => ({ field: field as SweepRecord['axes'][number]['field'], values: `1-${n}` })),
  base: req('a sweep'),
  cellCount: axes.reduce((c, [, n]) => c * n, 1),
});

/** A sweep whose every cell has a finished job; returns the jobs in cell order (Z, Y, X). */
function sweepWithJobs(store: JobStore, id: string, nx: number, ny: number, nz: number): string[] {
  store.sweeps.createSweep(
    record(
      id,
      [
        ['steps', nx],
        ['guidance', ny],
        ['seed', nz],
      ].filter(([, n]) => Number(n) > 0) as Array<[string, number]>,
    ),
  );
  const jobs: string[] = [];
  const links = [];
  for (let z = 0; z < nz; z += 1)
    for (let y = 0; y < ny; y += 1)
      for (let x = 0; x < nx; x += 1) {
        const jobId = finished(store, `cell ${x} ${y} ${z}`, {}, [image(0)]);
        jobs.push(jobId);
        links.push({ x, y, z, jobId });
      }
  store.sweeps.linkCells(id, links);
  return jobs;
}

describe('the sweep store', () => {
  it('makes a sweep once per key; each cell answers its newest job; a purged job leaves its cell empty', () => {
    const store = open();
    const id = uuidv7();
    const first = store.sweeps.createSweep(record(id, [['steps', 2]]), 'key-1');
    expect(first.created).toBe(true);
    const again = store.sweeps.createSweep(record(uuidv7(), [['steps', 2]]), 'key-1');
    expect(again).toMatchObject({ created: false, sweep: { id } });
    expect(store.sweeps.sweepByKey('key-1')?.typed).toEqual([{ field: 'steps', values: '1-2' }]);

    const a = store.submit(req('cell a')).job.id;
    const b = finished(store, 'cell b', {}, [image(0)]);
    store.sweeps.linkCells(id, [
      { x: 0, y: 0, z: 0, jobId: a },
      { x: 1, y: 0, z: 0, jobId: b },
    ]);
    expect(store.getSummary(b).sweep).toEqual({ id, x: 1, y: 0, z: 0 });
    expect(store.list({ limit: 60, view: 'active' }).items.find((j) => j.id === b)?.sweep).toEqual({
      id,
      x: 1,
      y: 0,
      z: 0,
    });
    expect(store.get(a).sweep).toEqual({ id, x: 0, y: 0, z: 0 });

    // A re-run of cell 0 adds a job; the cell answers it, the older one stays in the history.
    const rerun = finished(store, 'cell a again', {}, [image(0)]);
    store.sweeps.linkCells(id, [{ x: 0, y: 0, z: 0, jobId: rerun }]);
    expect(store.sweeps.sweepCells(id).map((c) => [c.x, c.job?.id])).toEqual([
      [0, rerun],
      [1, b],
    ]);
    expect(store.getSummary(a).status).toBe('queued');
    expect(store.sweeps.summarizeSweep(store.sweeps.sweep(id)!)).toMatchObject({
      succeeded: 2,
      failed: 0,
      pending: 0,
    });

    store.purge([b]);
    expect(store.sweeps.sweepCells(id).map((c) => c.job?.id ?? null)).toEqual([rerun, null]);
    expect(store.sweeps.sweepList(10).map((s) => [s.id, s.succeeded, s.cellCount])).toEqual([[id, 1, 2]]);
  });

  it('lists newest first with each one’s counts and cover', () => {
    const store = open();
    const older = uuidv7();
    const newer = uuidv7();
    store.sweeps.createSweep(record(older, [['steps', 1]], 1_000));
    store.sweeps.createSweep(record(newer, [['steps', 2]], 2_000));
    const failed = store.submit(req('will fail')).job.id;
    store.claim(failed);
    store.fail(failed, { code: 'provider_error', message: 'no', retryable: false });
    const ok = finished(store, 'fine', {}, [image(0)]);
    store.sweeps.linkCells(newer, [
      { x: 0, y: 0, z: 0, jobId: failed },
      { x: 1, y: 0, z: 0, jobId: ok },
    ]);
    const list = store.sweeps.sweepList(10);
    expect(list.map((s) => s.id)).toEqual([newer, older]);
    expect(list[0]).toMatchObject({ succeeded: 1, failed: 1, pending: 0, cover: { jobId: ok } });
    expect(list[1]!.cover).toBeUndefined();
  });

  it('a 20×20×2 grid and sweep:<id> are index reads, not walks of the history', () => {
    const store = open({ limits: { maxPendingJobs: 5_000 } });
    for (let i = 0; i < 300; i += 1) finished(store, `other ${i}`);
    const id = uuidv7();
    const jobs = sweepWithJobs(store, id, 20, 20, 2);

    const cells = captured(() => store.sweeps.sweepCells(id));
    expect(cells.value).toHaveLength(800);
    expect(cells.value.map((c) => c.job?.id)).toEqual(jobs);
    const grid = cells.plans.find((p) => p.sql.includes('FROM sweep_jobs'))!;
    expect(grid.plan.join('\n')).toMatch(/SEARCH sweep_jobs USING COVERING INDEX sweep_jobs_cell \(sweep_id=\?\)/);
    for (const p of cells.plans)
      expect(
        p.plan.filter((l) => /^SCAN \w+$/.test(l)),
        p.sql,
      ).toEqual([]);

    for (const search of [`sweep:${id}`, `sweep:${id.slice(0, 8)}`]) {
      const page = captured(() => store.list({ limit: 60, view: 'active', search }));
      expect(page.value.items).toHaveLength(60);
      expect(page.value.items.every((j) => j.sweep?.id === id)).toBe(true);
      const reads = page.plans.filter((p) => /FROM jobs AS j\b/.test(p.sql));
      expect(reads.length).toBeGreaterThan(0);
      for (const p of reads) {
        const said = `${p.sql}\n${p.plan.join('\n')}`;
        expect(
          p.plan.filter((l) => /^SCAN \w+$/.test(l) && l !== 'SCAN page' && l !== 'SCAN s'),
          said,
        ).toEqual([]);
        expect(
          p.plan.some((l) => l.includes('sweep_jobs_cell')),
          said,
        ).toBe(true);
      }
    }
    // Every job of the sweep, and only those.
    let cursor: string | undefined;
    const found: string[] = [];
    do {
      const page = store.list({ limit: 200, view: 'active', search: `sweep:${id}`, ...(cursor && { cursor }) });
      found.push(...page.items.map((j) => j.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(new Set(found)).toEqual(new Set(jobs));
  });
});
