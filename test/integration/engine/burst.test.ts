import { afterEach, describe, expect, it } from 'vitest';
import type { JobSummary } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { createScriptedProvider, scriptedEntry } from '../../fakes/scripted-provider.js';
import { startHarness, waitFor, type Harness } from './harness.js';

const base = { provider: 'scripted', width: 64, height: 64, count: 1 } as const;
const changed = (h: Harness) =>
  h.events.filter((e) => e.name === 'jobs.changed').map((e) => (e.payload as { job: JobSummary }).job);

describe('a burst of submits', () => {
  let h: Harness;
  afterEach(async () => {
    await h?.cleanup();
  });

  it('stores every one of 120 concurrent submits, announces each queued once, and runs them all in submit order', async () => {
    const provider = createScriptedProvider('scripted', [{ kind: 'succeed', delayMs: 0, progressSteps: 1 }]);
    h = await startHarness({ providers: [scriptedEntry(provider, 4)] });
    await h.engine.handlers['settings.update']({ concurrency: { global: 4 } });
    const n = 120;
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) => h.engine.handlers['jobs.submit']({ ...base, prompt: `burst ${i}`, seed: i })),
    );
    expect(results.every((r) => r.created)).toBe(true);
    expect(results.map((r) => r.job.prompt)).toEqual(Array.from({ length: n }, (_, i) => `burst ${i}`));
    const ids = results.map((r) => r.job.id);
    // Stored in the order they were made: ids (time-ordered) ascend with the calls.
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(n);

    await waitFor(() => changed(h).filter((j) => j.status === 'succeeded').length === n, 30_000);
    for (const id of ids) {
      const mine = changed(h).filter((j) => j.id === id);
      expect(mine.filter((j) => j.status === 'queued')).toHaveLength(1);
      expect(mine[0]!.status).toBe('queued');
      expect(mine.at(-1)!.status).toBe('succeeded');
    }
    // The queue hands them to the provider oldest first.
    expect(provider.calls.map((c) => c.prompt)).toEqual(results.map((r) => r.job.prompt));
    const stats = await h.engine.handlers['jobs.stats']({});
    expect(stats.byStatus.succeeded).toBe(n);
    expect(stats.total).toBe(n);
  });

  it('refuses a bad submit alone: the others made in the same turn are stored', async () => {
    const provider = createScriptedProvider('scripted', [{ kind: 'hang' }]);
    h = await startHarness({ providers: [scriptedEntry(provider, 1)] });
    const first = await h.engine.handlers['jobs.submit']({ ...base, prompt: 'keyed', idempotencyKey: 'key-1' });
    const settled = await Promise.allSettled([
      h.engine.handlers['jobs.submit']({ ...base, prompt: 'new one' }),
      h.engine.handlers['jobs.submit']({ ...base, prompt: 'a different request', idempotencyKey: 'key-1' }),
      h.engine.handlers['jobs.submit']({ ...base, prompt: 'keyed', idempotencyKey: 'key-1' }),
      h.engine.handlers['jobs.submit']({ ...base, prompt: 'another new one' }),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const [made, conflict, replay, alsoMade] = settled;
    expect(made.status === 'fulfilled' && made.value.created).toBe(true);
    expect(conflict.status === 'rejected' && conflict.reason instanceof AppError && conflict.reason.code).toBe(
      'conflict',
    );
    expect(replay.status === 'fulfilled' && replay.value).toMatchObject({ created: false, job: { id: first.job.id } });
    expect(alsoMade.status === 'fulfilled' && alsoMade.value.created).toBe(true);
    const page = await h.engine.handlers['jobs.list']({ limit: 10, view: 'all' });
    expect(page.items.map((j) => j.prompt).sort()).toEqual(['another new one', 'keyed', 'new one']);
  });

  it('announces a new job as the same summary the history lists, without its request or trace', async () => {
    const provider = createScriptedProvider('scripted', [{ kind: 'hang' }]);
    h = await startHarness({ providers: [scriptedEntry(provider, 1)] });
    await h.engine.handlers['jobs.submit']({ ...base, prompt: 'runs first' });
    const { job } = await h.engine.handlers['jobs.submit']({
      ...base,
      prompt: 'stays queued',
      negativePrompt: 'fog',
      seed: 3,
    });
    const announced = changed(h).find((j) => j.id === job.id);
    const listed = (await h.engine.handlers['jobs.list']({ limit: 10, view: 'all' })).items.find(
      (j) => j.id === job.id,
    );
    expect(listed?.status).toBe('queued');
    expect(announced).toEqual(listed);
  });
});
