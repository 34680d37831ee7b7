import { describe, expect, it } from 'vitest';
import type { SweepDetail, SweepSummary } from '../../../../shared/contract';
import { AppError } from '../../../../shared/errors';
import { createAppStore } from '../../../../renderer/src/store/store';
import { fakeApi, makeJob } from '../helpers';

const BASE = { provider: 'builtin', prompt: 'a fox', width: 512, height: 512, count: 1 };

function summary(id: string): SweepSummary {
  return {
    id,
    name: 'CFG × steps',
    createdAt: 1,
    axes: [
      { field: 'guidance', values: ['3', '7'] },
      { field: 'steps', values: ['10'] },
    ],
    cellCount: 2,
    succeeded: 0,
    failed: 0,
    pending: 2,
  };
}

function detailWith(id: string, jobs: ReturnType<typeof makeJob>[]): SweepDetail {
  return {
    ...summary(id),
    base: BASE,
    cells: jobs.map((job, x) => ({ x, y: 0, z: 0, job })),
  };
}

function setup(handlers: Record<string, (input: unknown) => unknown>) {
  const fake = fakeApi(handlers);
  let n = 0;
  const store = createAppStore({ api: fake.api, makeKey: () => `key-${++n}`, now: () => 0 });
  return { fake, store };
}

describe('the sweeps slice', () => {
  it('starts a sweep once for a double press, sends the composer base and axes, and opens its grid', async () => {
    const first = makeJob({ status: 'queued' });
    let release: () => void = () => undefined;
    const { fake, store } = setup({
      'sweeps.start': () =>
        new Promise((resolve) => {
          release = () => resolve({ sweep: summary('s1') });
        }),
      'sweeps.get': async () => detailWith('s1', [first]),
    });
    store.getState().setSweepAxes([{ field: 'guidance', values: '3, 7', lora: '' }]);
    const one = store.getState().startSweep(BASE);
    const two = store.getState().startSweep(BASE);
    release();
    expect(await one).toBe(true);
    expect(await two).toBe(false);
    const starts = fake.calls.filter((c) => c.channel === 'sweeps.start');
    expect(starts).toHaveLength(1);
    expect(starts[0]!.input).toEqual({
      base: BASE,
      axes: [{ field: 'guidance', values: '3, 7' }],
      idempotencyKey: 'key-1',
    });
    expect(store.getState().sweepView?.id).toBe('s1');
    expect(store.getState().sweepView?.detail?.cells).toHaveLength(1);
    // The cells' jobs join the app's jobs, which the grid, the viewer and curation read.
    expect(store.getState().jobs.byId[first.id]).toBeDefined();
    expect(store.getState().sweeps?.map((s) => s.id)).toEqual(['s1']);
  });

  it('keeps the key of a sweep that failed to start for the retry, and points an axis error at its axis', async () => {
    let fail = true;
    const { fake, store } = setup({
      'sweeps.start': async () => {
        if (fail)
          throw new AppError('invalid_request', 'Steps go from 1 to 150.', { details: { field: 'axes.1.values' } });
        return { sweep: summary('s2') };
      },
      'sweeps.get': async () => detailWith('s2', []),
    });
    store.getState().setSweepAxes([
      { field: 'guidance', values: '3, 7', lora: '' },
      { field: 'steps', values: '999', lora: '' },
    ]);
    expect(await store.getState().startSweep(BASE)).toBe(false);
    expect(store.getState().sweepErrors).toEqual({ 1: 'Steps go from 1 to 150.' });
    fail = false;
    expect(await store.getState().startSweep(BASE)).toBe(true);
    const keys = fake.calls
      .filter((c) => c.channel === 'sweeps.start')
      .map((c) => (c.input as { idempotencyKey: string }).idempotencyKey);
    expect(keys).toEqual(['key-1', 'key-1']);
  });

  it('puts a re-run job in its cell as jobs.changed announces it, and never an older one over a newer', async () => {
    const old = makeJob({ status: 'failed' });
    const { fake, store } = setup({ 'sweeps.get': async () => detailWith('s3', [old]) });
    await store.getState().openSweep('s3');
    const rerun = makeJob({
      status: 'queued',
      createdAt: old.createdAt + 10,
      sweep: { id: 's3', x: 0, y: 0, z: 0 },
    } as never);
    fake.emit('jobs.changed', { job: rerun });
    expect(store.getState().sweepView?.detail?.cells[0]?.job?.id).toBe(rerun.id);
    const stale = makeJob({ createdAt: old.createdAt - 10, sweep: { id: 's3', x: 0, y: 0, z: 0 } } as never);
    fake.emit('jobs.changed', { job: stale });
    expect(store.getState().sweepView?.detail?.cells[0]?.job?.id).toBe(rerun.id);
    // Another sweep's job leaves this grid alone; once closed, the grid hears nothing.
    fake.emit('jobs.changed', {
      job: makeJob({ createdAt: old.createdAt + 99, sweep: { id: 'other', x: 0, y: 0, z: 0 } } as never),
    });
    expect(store.getState().sweepView?.detail?.cells[0]?.job?.id).toBe(rerun.id);
  });

  it('re-runs the failed cells (no cells named) or the ones picked, then reads the grid again', async () => {
    const { fake, store } = setup({
      'sweeps.get': async () => detailWith('s4', [makeJob({ status: 'failed' })]),
      'sweeps.rerun': async () => ({ submitted: 1 }),
    });
    await store.getState().openSweep('s4');
    await store.getState().rerunSweep();
    await store.getState().rerunSweep([{ x: 0, y: 0, z: 0 }]);
    const reruns = fake.calls.filter((c) => c.channel === 'sweeps.rerun').map((c) => c.input);
    expect(reruns).toEqual([{ id: 's4' }, { id: 's4', cells: [{ x: 0, y: 0, z: 0 }] }]);
    expect(fake.calls.filter((c) => c.channel === 'sweeps.get')).toHaveLength(3);
  });
});
