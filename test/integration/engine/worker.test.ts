import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { createHeldProvider, heldEntry } from '../../fakes/held-provider.js';
import { createScriptedProvider, scriptedEntry } from '../../fakes/scripted-provider.js';
import { startHarness, waitFor, waitForStatus, type Harness } from './harness.js';

const base = { provider: 'scripted', prompt: 'a lighthouse at dusk', width: 64, height: 64, count: 2 } as const;

describe('provider worker', () => {
  let h: Harness;
  afterEach(async () => {
    vi.useRealTimers();
    await h?.cleanup();
  });

  it('runs a job to success: images on disk, one transaction, progress and previews as events', async () => {
    // Timers are faked (still moving with real time) so that, after the end, the clock can be moved on at once.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const provider = createScriptedProvider('scripted', [
      { kind: 'succeed', progressSteps: 4, partials: 2, delayMs: 200 },
    ]);
    h = await startHarness({ providers: [scriptedEntry(provider)] });
    const { job, created } = await h.engine.handlers['jobs.submit']({ ...base, seed: 7 });
    expect(created).toBe(true);
    const done = await waitForStatus(h.engine, job.id, ['succeeded']);
    expect(done.images).toHaveLength(2);
    expect(done.result?.seed).toBe(7);
    // The phases add up to the whole, and the provider's 200 ms of work is in its own phase.
    const t = done.result!.timings as Record<'queuedMs' | 'providerMs' | 'storeMs' | 'totalMs', number>;
    expect(Object.keys(t).sort()).toEqual(['providerMs', 'queuedMs', 'storeMs', 'totalMs']);
    expect(t.totalMs).toBe(t.queuedMs + t.providerMs + t.storeMs);
    expect(t.providerMs).toBeGreaterThan(0);
    for (const image of done.images) {
      const file = h.engine.resolveMedia('image', image.id);
      expect(file).not.toBeNull();
      expect(readFileSync(file!.path).subarray(1, 4).toString()).toBe('PNG');
      expect(existsSync(h.engine.resolveMedia('thumb', image.id)!.path)).toBe(true);
    }
    const progress = h.events
      .filter((e) => e.name === 'jobs.progress')
      .map((e) => e.payload as { partialImages: number; previewImageId?: string });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.some((p) => p.previewImageId !== undefined)).toBe(true);
    const statuses = h.events
      .filter((e) => e.name === 'jobs.changed')
      .map((e) => (e.payload as { job: { status: string } }).job.status);
    expect(statuses[0]).toBe('queued');
    expect(statuses).toContain('running');
    expect(statuses.at(-1)).toBe('succeeded');
    // No progress is announced after the job's end.
    const lastProgress = h.events.map((e) => e.name).lastIndexOf('jobs.progress');
    const terminal = h.events.findIndex(
      (e) => e.name === 'jobs.changed' && (e.payload as { job: { status: string } }).job.status === 'succeeded',
    );
    // A fake clock, not a wait: a progress tick still held back by the throttle is a timer due within its 100 ms
    // interval; move the clock a whole second at once (well short of the previews' 30 s linger).
    vi.advanceTimersByTime(1_000);
    vi.useRealTimers();
    expect(h.events.map((e) => e.name).lastIndexOf('jobs.progress')).toBe(lastProgress);
    expect(lastProgress).toBeLessThan(terminal);
    // Partial previews stay a while after the end (a page may still be fetching the last one), and are gone at the latest once the engine closes.
    expect(existsSync(join(h.dataDir, 'previews', job.id))).toBe(true);
    await h.engine.close({ graceMs: 0 });
    expect(existsSync(join(h.dataDir, 'previews', job.id))).toBe(false);
  });

  it('a partial preview landing keeps the step count of the tick before it', async () => {
    const provider = createHeldProvider('scripted');
    h = await startHarness({ providers: [heldEntry(provider)] });
    const { job } = await h.engine.handlers['jobs.submit']({ ...base, count: 1 });
    const held = await provider.started(base.prompt);
    await held.step(3, 10);
    const ticks = () =>
      h.events
        .filter((e) => e.name === 'jobs.progress')
        .map((e) => e.payload as { step?: number; steps?: number; previewImageId?: string });
    await waitFor(() => ticks().some((t) => t.previewImageId !== undefined));
    // The tick that carries the preview still says where the job is.
    for (const tick of ticks().filter((t) => t.previewImageId !== undefined))
      expect([tick.step, tick.steps]).toEqual([3, 10]);
    held.finish();
    await waitForStatus(h.engine, job.id, ['succeeded']);
  });

  it('retries a retryable failure before acceptance, records each attempt, then succeeds', async () => {
    const busy = new AppError('provider_rate_limited', 'Slow down.', {
      retryable: true,
      details: { retryAfterMs: 20 },
    });
    const provider = createScriptedProvider('scripted', [
      { kind: 'fail', error: busy },
      { kind: 'fail', error: busy },
      { kind: 'succeed' },
    ]);
    h = await startHarness({ providers: [scriptedEntry(provider)] });
    const { job } = await h.engine.handlers['jobs.submit'](base);
    const done = await waitForStatus(h.engine, job.id, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    expect(provider.calls).toHaveLength(3);
    expect(done.events.filter((e) => e.kind === 'attempt')).toHaveLength(3);
    expect(done.events.filter((e) => e.kind === 'retry')).toHaveLength(2);
  });

  it('never re-sends work the provider accepted, even when the error says retryable', async () => {
    const dropped = new AppError('provider_unavailable', 'Connection dropped.', { retryable: true });
    const provider = createScriptedProvider('scripted', [
      { kind: 'fail', error: dropped, afterAccept: true },
      { kind: 'succeed' },
    ]);
    h = await startHarness({ providers: [scriptedEntry(provider)] });
    const { job } = await h.engine.handlers['jobs.submit'](base);
    const done = await waitForStatus(h.engine, job.id, ['succeeded', 'failed']);
    expect(done.status).toBe('failed');
    expect(provider.calls).toHaveLength(1);
    expect(done.error?.code).toBe('provider_unavailable');
  });

  it('gives up after the bounded number of attempts', async () => {
    const refused = new AppError('provider_unavailable', 'Connection refused.', { retryable: true });
    const provider = createScriptedProvider('scripted', [{ kind: 'fail', error: refused }]);
    h = await startHarness({ providers: [scriptedEntry(provider)] });
    const { job } = await h.engine.handlers['jobs.submit'](base);
    const done = await waitForStatus(h.engine, job.id, ['failed']);
    expect(provider.calls).toHaveLength(3);
    expect(done.errorDetail?.code).toBe('provider_unavailable');
  });

  it('cancels a running job through its abort signal and ends it cancelled', async () => {
    const provider = createScriptedProvider('scripted', [{ kind: 'hang' }]);
    h = await startHarness({ providers: [scriptedEntry(provider)] });
    const { job } = await h.engine.handlers['jobs.submit'](base);
    await waitForStatus(h.engine, job.id, ['running']);
    await waitFor(() => provider.calls.length === 1);
    const flagged = await h.engine.handlers['jobs.cancel']({ id: job.id });
    expect(flagged.cancelRequested || flagged.status === 'cancelled').toBe(true);
    const done = await waitForStatus(h.engine, job.id, ['cancelled']);
    expect(done.error?.code).toBe('cancelled');
    expect(provider.aborted).toBe(1);
  });

  it('cancels a queued job at once without calling the provider', async () => {
    const provider = createScriptedProvider('scripted', [{ kind: 'hang' }]);
    h = await startHarness({ providers: [scriptedEntry(provider, 1)] });
    await h.engine.handlers['settings.update']({ concurrency: { global: 1 } });
    const first = await h.engine.handlers['jobs.submit'](base);
    await waitForStatus(h.engine, first.job.id, ['running']);
    const second = await h.engine.handlers['jobs.submit']({ ...base, prompt: 'second' });
    const cancelled = await h.engine.handlers['jobs.cancel']({ id: second.job.id });
    expect(cancelled.status).toBe('cancelled');
    expect(provider.calls).toHaveLength(1);
  });

  it('honours the global and per-provider concurrency limits', async () => {
    const provider = createScriptedProvider('scripted', [{ kind: 'succeed', delayMs: 150 }]);
    let peak = 0;
    let now = 0;
    const original = provider.generate.bind(provider);
    provider.generate = async (...args) => {
      now += 1;
      peak = Math.max(peak, now);
      try {
        return await original(...args);
      } finally {
        now -= 1;
      }
    };
    h = await startHarness({ providers: [scriptedEntry(provider, 2)] });
    await h.engine.handlers['settings.update']({ concurrency: { global: 3 } });
    const ids = [];
    for (let i = 0; i < 6; i += 1)
      ids.push((await h.engine.handlers['jobs.submit']({ ...base, count: 1, prompt: `p${i}` })).job.id);
    for (const id of ids) await waitForStatus(h.engine, id, ['succeeded']);
    expect(peak).toBe(2);
  });

  it('times out a provider that never answers with a non-retryable timeout', async () => {
    const provider = createScriptedProvider('scripted', [{ kind: 'hang' }]);
    h = await startHarness({
      hardTimeoutGraceMs: 200,
      providers: [{ ...scriptedEntry(provider), defaults: { enabled: true, timeoutMs: 1_000, concurrency: 1 } }],
    });
    const { job } = await h.engine.handlers['jobs.submit']({ ...base, timeoutMs: 1_000 });
    // The scripted provider ignores its own timeout, so the worker's hard bound (timeout + grace) ends it.
    const done = await waitForStatus(h.engine, job.id, ['failed'], 15_000);
    expect(done.errorDetail).toMatchObject({ code: 'timeout', retryable: false });
  }, 20_000);

  it('retry creates a new job from a finished job, linked both ways in the trace', async () => {
    const provider = createScriptedProvider('scripted', [
      { kind: 'fail', error: new AppError('provider_rejected', 'No.') },
      { kind: 'succeed' },
    ]);
    h = await startHarness({ providers: [scriptedEntry(provider)] });
    const { job } = await h.engine.handlers['jobs.submit'](base);
    await waitForStatus(h.engine, job.id, ['failed']);
    const retried = await h.engine.handlers['jobs.retry']({ id: job.id });
    expect(retried.created).toBe(true);
    expect(retried.job.id).not.toBe(job.id);
    const done = await waitForStatus(h.engine, retried.job.id, ['succeeded']);
    expect(done.events.some((e) => e.kind === 'retry_of' && e.data?.['originalId'] === job.id)).toBe(true);
    const original = await h.engine.handlers['jobs.get']({ id: job.id });
    expect(original.events.some((e) => e.kind === 'retried_as' && e.data?.['retryId'] === retried.job.id)).toBe(true);
  });

  it('quitting mid-job leaves it interrupted on the next start and resumes queued work', async () => {
    const provider = createScriptedProvider('scripted', [{ kind: 'hang' }]);
    h = await startHarness({ providers: [scriptedEntry(provider, 1)] });
    await h.engine.handlers['settings.update']({ concurrency: { global: 1 } });
    const running = await h.engine.handlers['jobs.submit'](base);
    await waitForStatus(h.engine, running.job.id, ['running']);
    const queued = await h.engine.handlers['jobs.submit']({ ...base, prompt: 'waits its turn' });
    await h.engine.close({ graceMs: 50 });

    const next = createScriptedProvider('scripted', [{ kind: 'succeed' }]);
    await h.open({ providers: [scriptedEntry(next, 1)] });
    const interrupted = await h.engine.handlers['jobs.get']({ id: running.job.id });
    expect(interrupted.status).toBe('interrupted');
    expect(interrupted.errorDetail?.retryable).toBe(false);
    await waitForStatus(h.engine, queued.job.id, ['succeeded']);
    // The interrupted job was never sent again.
    expect(next.calls.map((c) => c.prompt)).toEqual(['waits its turn']);
  });

  it('rejects a request the provider cannot do before anything is stored', async () => {
    const provider = createScriptedProvider();
    h = await startHarness({ providers: [scriptedEntry(provider)] });
    await expect(h.engine.handlers['jobs.submit']({ ...base, count: 9 })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(h.engine.handlers['jobs.submit']({ ...base, provider: 'nope' })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect((await h.engine.handlers['jobs.list']({ limit: 60, view: 'all' })).items).toHaveLength(0);
  });

  it('purge removes rows and their files and announces the removal', async () => {
    const provider = createScriptedProvider();
    h = await startHarness({ providers: [scriptedEntry(provider)] });
    const { job } = await h.engine.handlers['jobs.submit']({ ...base, seed: 99 });
    const done = await waitForStatus(h.engine, job.id, ['succeeded']);
    const paths = done.images.map((i) => h.engine.resolveMedia('image', i.id)!.path);
    await h.engine.handlers['jobs.trash']({ ids: [job.id] });
    const result = await h.engine.handlers['jobs.emptyTrash']({});
    expect(result.removed).toBe(1);
    expect(result.bytesFreed).toBeGreaterThan(0);
    for (const p of paths) expect(existsSync(p)).toBe(false);
    expect(
      h.events.some((e) => e.name === 'jobs.removed' && (e.payload as { ids: string[] }).ids.includes(job.id)),
    ).toBe(true);
  });

  it('keeps API keys write-only: never returned, never in the database file', async () => {
    const provider = createScriptedProvider();
    h = await startHarness({ providers: [scriptedEntry(provider)] });
    const secret = 'sk-live-SECRET-abcdef0123456789';
    const view = await h.engine.handlers['settings.update']({ providers: { scripted: { apiKey: secret } } });
    expect(JSON.stringify(view)).not.toContain(secret);
    expect(view.providers['scripted']?.hasApiKey).toBe(true);
    await h.engine.close();
    for (const name of ['atelier.db', 'atelier.db-wal']) {
      const path = join(h.dataDir, name);
      if (existsSync(path)) expect(readFileSync(path).includes(Buffer.from(secret))).toBe(false);
    }
  });
});
