import { mkdtempSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { AppError } from '../../../shared/errors.js';
import type { StartSweep, SweepDetail } from '../../../shared/contract.js';
import { a1111Errors, startFakeA1111, type FakeA1111 } from '../../fakes/index.js';
import { exportDone, readZip } from '../export/helpers.js';
import { startHarness, waitFor, type Harness } from './harness.js';

const TERMINAL = ['succeeded', 'failed', 'cancelled', 'interrupted'];

describe('sweeps: each cell a normal job, read back as one grid', () => {
  let h: Harness | undefined;
  const fakes: FakeA1111[] = [];
  afterEach(async () => {
    await h?.cleanup();
    for (const fake of fakes.splice(0)) await fake.close();
    h = undefined;
  });

  async function twoServers(): Promise<Harness> {
    const a = await startFakeA1111();
    const b = await startFakeA1111();
    fakes.push(a, b);
    const harness = await startHarness({ providers: defaultProviders() });
    await harness.engine.handlers['settings.update']({ providers: { a1111: { enabled: true, baseUrl: a.url } } });
    await harness.engine.handlers['providers.add']({ kind: 'a1111', name: 'Second', baseUrl: b.url });
    await harness.engine.handlers['settings.update']({ providers: { 'a1111-2': { enabled: true } } });
    return harness;
  }

  const start: StartSweep = {
    base: { provider: 'any:a1111', prompt: 'a red fox', width: 64, height: 64, count: 1, seed: 7, steps: 2 },
    axes: [
      { field: 'steps', values: '1-3' },
      { field: 'guidance', values: '5, 7.5' },
    ],
    idempotencyKey: 'fox-sweep',
  };

  async function settled(harness: Harness, id: string): Promise<SweepDetail> {
    return waitFor(async () => {
      const detail = await harness.engine.handlers['sweeps.get']({ id });
      return detail.cells.every((c) => c.job !== null && TERMINAL.includes(c.job.status)) ? detail : undefined;
    }, 20_000);
  }

  it('any:a1111 places the cells across both servers; the grid holds each cell’s settings; the key makes it once', async () => {
    h = await twoServers();
    const { sweep } = await h.engine.handlers['sweeps.start'](start);
    expect(sweep).toMatchObject({ cellCount: 6, name: 'Steps × CFG' });
    expect(sweep.axes).toEqual([
      { field: 'steps', values: ['1', '2', '3'] },
      { field: 'guidance', values: ['5', '7.5'] },
    ]);

    const detail = await settled(h, sweep.id);
    expect(detail.cells.map((c) => [c.x, c.y, c.z, c.job?.status])).toEqual([
      [0, 0, 0, 'succeeded'],
      [1, 0, 0, 'succeeded'],
      [2, 0, 0, 'succeeded'],
      [0, 1, 0, 'succeeded'],
      [1, 1, 0, 'succeeded'],
      [2, 1, 0, 'succeeded'],
    ]);
    expect(detail).toMatchObject({ succeeded: 6, failed: 0, pending: 0, base: { prompt: 'a red fox' } });
    const requests = await Promise.all(
      detail.cells.map(async (c) => (await h!.engine.handlers['jobs.get']({ id: c.job!.id })).request),
    );
    expect(requests.map((r) => [r.steps, r.guidance, r.seed, r.provider])).toEqual([
      [1, 5, 7, 'any:a1111'],
      [2, 5, 7, 'any:a1111'],
      [3, 5, 7, 'any:a1111'],
      [1, 7.5, 7, 'any:a1111'],
      [2, 7.5, 7, 'any:a1111'],
      [3, 7.5, 7, 'any:a1111'],
    ]);
    // Each cell's job is announced with its cell while queued: at least the 4 that waited for one of the 2 servers.
    const queuedWithCell = detail.cells.filter((c) =>
      h!.events.some(
        (e) =>
          e.name === 'jobs.changed' &&
          'job' in e.payload &&
          e.payload.job.id === c.job!.id &&
          e.payload.job.status === 'queued' &&
          e.payload.job.sweep?.id === sweep.id,
      ),
    );
    expect(queuedWithCell.length).toBeGreaterThanOrEqual(4);
    // Both servers ran cells: the scheduler placed them, nothing sweep-specific.
    expect(new Set(detail.cells.map((c) => c.job!.instance))).toEqual(new Set(['a1111', 'a1111-2']));
    expect(fakes.every((f) => f.generationRequests().length > 0)).toBe(true);
    // The same key makes the sweep once.
    const again = await h.engine.handlers['sweeps.start'](start);
    expect(again.sweep.id).toBe(sweep.id);
    expect((await h.engine.handlers['sweeps.list']({})).items.map((s) => s.id)).toEqual([sweep.id]);
    const { items } = await h.engine.handlers['jobs.list']({ limit: 50, view: 'active' });
    expect(items).toHaveLength(6);
  });

  it('refuses a bad axis, and a sweep over the cap, naming the axis and storing nothing', async () => {
    h = await twoServers();
    const refusal = async (s: StartSweep) =>
      h!.engine.handlers['sweeps.start'](s).then(
        () => null,
        (e: unknown) => e,
      );
    const bad = await refusal({ ...start, axes: [start.axes[0]!, { field: 'guidance', values: '5, 40' }] });
    expect(bad).toBeInstanceOf(AppError);
    expect(bad).toMatchObject({ code: 'invalid_request', details: { field: 'axes.1.values' } });
    expect((bad as Error).message).toContain('Guidance goes from 0 to 30: 40 is outside.');

    const over = await refusal({
      ...start,
      axes: [
        { field: 'seed', values: '1-30' },
        { field: 'steps', values: '1-20' },
      ],
    });
    expect(over).toMatchObject({ code: 'invalid_request', details: { field: 'axes' } });
    expect((over as Error).message).toBe('This sweep makes 600 cells; a sweep has at most 500.');

    expect((await h.engine.handlers['sweeps.list']({})).items).toEqual([]);
    expect((await h.engine.handlers['jobs.list']({ limit: 50, view: 'active' })).items).toEqual([]);
  });

  it('re-runs failed and purged cells by default, or the cells named; older jobs stay in the history', async () => {
    const a = await startFakeA1111();
    fakes.push(a);
    h = await startHarness({ providers: defaultProviders() });
    await h.engine.handlers['settings.update']({ providers: { a1111: { enabled: true, baseUrl: a.url } } });
    // One server runs the cells in order: the second one's sampler is refused.
    a.setScenario([{ kind: 'success' }, a1111Errors.samplerNotFound(), { kind: 'success' }]);
    const { sweep } = await h.engine.handlers['sweeps.start']({
      base: { provider: 'a1111', prompt: 'a lighthouse', width: 64, height: 64, count: 1, steps: 2 },
      axes: [{ field: 'seed', values: '1-3' }],
    });
    const first = await settled(h, sweep.id);
    expect(first.cells.map((c) => c.job!.status)).toEqual(['succeeded', 'failed', 'succeeded']);
    expect(first).toMatchObject({ succeeded: 2, failed: 1 });
    await h.engine.handlers['jobs.purge']({ ids: [first.cells[2]!.job!.id] });

    a.setScenario({ kind: 'success' });
    expect(await h.engine.handlers['sweeps.rerun']({ id: sweep.id })).toEqual({ submitted: 2 });
    const second = await settled(h, sweep.id);
    expect(second.cells.map((c) => c.job!.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(second.cells[0]!.job!.id).toBe(first.cells[0]!.job!.id);
    expect(second.cells[1]!.job!.id).not.toBe(first.cells[1]!.job!.id);
    const rerun = await h.engine.handlers['jobs.get']({ id: second.cells[2]!.job!.id });
    expect(rerun.request.seed).toBe(3);
    expect(rerun.sweep).toEqual({ id: sweep.id, x: 2, y: 0, z: 0 });
    // The failed job stays in the history beside its re-run.
    expect((await h.engine.handlers['jobs.get']({ id: first.cells[1]!.job!.id })).status).toBe('failed');

    // Named cells run again whatever they hold; nothing to re-run submits nothing.
    expect(await h.engine.handlers['sweeps.rerun']({ id: sweep.id, cells: [{ x: 0, y: 0, z: 0 }] })).toEqual({
      submitted: 1,
    });
    await settled(h, sweep.id);
    expect(await h.engine.handlers['sweeps.rerun']({ id: sweep.id })).toEqual({ submitted: 0 });
    await expect(
      h.engine.handlers['sweeps.rerun']({ id: sweep.id, cells: [{ x: 5, y: 0, z: 0 }] }),
    ).rejects.toMatchObject({
      code: 'invalid_request',
      details: { field: 'cells' },
    });

    // sweep:<id> finds every job of the sweep, and a query's ZIP export takes their images.
    const found = await h.engine.handlers['jobs.list']({ limit: 50, view: 'active', search: `sweep:${sweep.id}` });
    expect(found.items).toHaveLength(5);
    const out = mkdtempSync(`${h.dataDir}-zip`);
    const { export: started } = await h.engine.handlers['export.start']({
      target: { query: { view: 'active', search: `sweep:${sweep.id.slice(0, 8)}` } },
      format: 'zip',
      folder: out,
      manifest: 'none',
    });
    expect(started.total).toBe(4);
    const done = await exportDone(h.engine, started.id);
    expect(readZip(done.path!)).toHaveLength(4);
    rmSync(out, { recursive: true, force: true });
  });

  it('a cell the contract refuses points at its axis', async () => {
    h = await twoServers();
    await expect(
      h.engine.handlers['sweeps.start']({
        base: { provider: 'any:a1111', prompt: 'fox', width: 64, height: 64, count: 1 },
        axes: [{ field: 'prompt', values: 'fox, ""' }],
      }),
    ).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'The cell at prompt = "": Write a prompt.',
      details: { field: 'axes.0.values' },
    });
    // A provider that cannot take a base setting: the provider axis is what to change.
    await expect(
      h.engine.handlers['sweeps.start']({
        base: { provider: 'a1111', prompt: 'fox', width: 64, height: 64, count: 1, scheduler: 'karras' },
        axes: [
          { field: 'steps', values: '2, 3' },
          { field: 'provider', values: 'a1111, builtin' },
        ],
      }),
    ).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'The cell at steps = 2, provider = builtin: The built-in generator has no schedulers to choose from.',
      details: { field: 'axes.1.values' },
    });
    // A setting an axis sets that the provider cannot take: that axis.
    await expect(
      h.engine.handlers['sweeps.start']({
        base: { provider: 'builtin', prompt: 'fox', width: 64, height: 64, count: 1 },
        axes: [
          { field: 'steps', values: '2, 3' },
          { field: 'scheduler', values: 'karras' },
        ],
      }),
    ).rejects.toMatchObject({ details: { field: 'axes.1.values' } });
    expect((await h.engine.handlers['jobs.list']({ limit: 50, view: 'active' })).items).toEqual([]);
  });
});
