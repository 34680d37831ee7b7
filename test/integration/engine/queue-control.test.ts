import { afterEach, describe, expect, it } from 'vitest';
import type { QueueControlState } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { startFakeBfl } from '../../fakes/bfl.js';
import { createHeldProvider, heldEntry, type HeldProvider } from '../../fakes/held-provider.js';
import { createScriptedProvider } from '../../fakes/scripted-provider.js';
import { startHarness, waitFor, waitForStatus, type Harness } from './harness.js';

const base = { provider: 'scripted', prompt: 'a', width: 64, height: 64, count: 1 } as const;

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** Two held providers: the witness shows the scheduler ran passes while the other stayed held. */
async function twoProviders(concurrency = 1): Promise<{ main: HeldProvider; witness: HeldProvider; h: Harness }> {
  const main = createHeldProvider('scripted');
  const witness = createHeldProvider('witness');
  h = await startHarness({ providers: [heldEntry(main, concurrency), heldEntry(witness, 1)] });
  await h.engine.handlers['settings.update']({ concurrency: { global: 8 } });
  return { main, witness, h };
}

function controlEvents(harness: Harness): QueueControlState[] {
  const seen: QueueControlState[] = [];
  harness.engine.events.on('queue.control', (state) => seen.push(state));
  return seen;
}

describe('queue control', () => {
  it('runs queued jobs in the order the person set: moved before another, and to the top', async () => {
    const { main, h } = await twoProviders(1);
    const ids: string[] = [];
    for (const prompt of ['first', 'second', 'third', 'fourth']) {
      ids.push((await h.engine.handlers['jobs.submit']({ ...base, prompt })).job.id);
    }
    const first = await main.started('first');
    const view = await h.engine.handlers['queue.view']({});
    expect(view.running.map((j) => j.id)).toEqual([ids[0]]);
    expect(view.queued.map((j) => j.id)).toEqual(ids.slice(1));
    // "fourth" to the top, then "second" to the end.
    expect(await h.engine.handlers['queue.reorder']({ ids: [ids[3]!], before: ids[1]! })).toEqual({ moved: 1 });
    await h.engine.handlers['queue.reorder']({ ids: [ids[1]!], before: null });
    expect((await h.engine.handlers['queue.view']({})).queued.map((j) => j.id)).toEqual([ids[3], ids[2], ids[1]]);
    first.finish();
    (await main.started('fourth')).finish();
    (await main.started('third')).finish();
    (await main.started('second')).finish();
    expect(main.calls.map((r) => r.prompt)).toEqual(['first', 'fourth', 'third', 'second']);
  });

  it('pauses one provider: its jobs wait while others run, and the pause outlives a restart', async () => {
    const { main, witness, h } = await twoProviders(1);
    const events = controlEvents(h);
    const state = await h.engine.handlers['queue.pause']({ provider: 'scripted' });
    expect(state.providers.find((p) => p.id === 'scripted')?.hold?.kind).toBe('paused');
    expect(events.at(-1)?.providers.find((p) => p.id === 'scripted')?.hold?.kind).toBe('paused');
    const waiting = (await h.engine.handlers['jobs.submit']({ ...base, prompt: 'held back' })).job.id;
    const other = (await h.engine.handlers['jobs.submit']({ ...base, provider: 'witness', prompt: 'goes' })).job.id;
    (await witness.started('goes')).finish();
    await waitForStatus(h.engine, other, ['succeeded']);
    expect(main.calls).toHaveLength(0);
    expect((await h.engine.handlers['jobs.get']({ id: waiting })).status).toBe('queued');

    await h.engine.close({ graceMs: 0 });
    const reopened = await h.open();
    const after = await reopened.handlers['queue.view']({});
    expect(after.control.providers.find((p) => p.id === 'scripted')?.hold?.kind).toBe('paused');
    expect(after.queued.map((j) => j.id)).toEqual([waiting]);
    await reopened.handlers['queue.resume']({ provider: 'scripted' });
    (await main.started('held back')).finish();
    await waitForStatus(reopened, waiting, ['succeeded']);
  });

  it('pauses the whole queue: running jobs finish, nothing new starts until resumed', async () => {
    const { main, h } = await twoProviders(2);
    await h.engine.handlers['jobs.submit']({ ...base, prompt: 'running' });
    const running = await main.started('running');
    expect((await h.engine.handlers['queue.pause']({})).paused).toBe(true);
    const later = (await h.engine.handlers['jobs.submit']({ ...base, prompt: 'later' })).job.id;
    running.finish();
    // The finished job frees a slot and kicks the scheduler: still nothing starts.
    await waitFor(async () => (await h.engine.handlers['queue.view']({})).running.length === 0);
    expect(main.calls.map((r) => r.prompt)).toEqual(['running']);
    expect((await h.engine.handlers['queue.resume']({})).paused).toBe(false);
    (await main.started('later')).finish();
    await waitForStatus(h.engine, later, ['succeeded']);
  });

  it('cancels all queued jobs only with the count the person confirmed; the running one goes on', async () => {
    const { main, h } = await twoProviders(1);
    await h.engine.handlers['jobs.submit']({ ...base, prompt: 'running' });
    const running = await main.started('running');
    for (const prompt of ['q1', 'q2', 'q3']) await h.engine.handlers['jobs.submit']({ ...base, prompt });
    await expect(h.engine.handlers['queue.cancelQueued']({ expected: 2 })).rejects.toMatchObject({
      code: 'conflict',
      details: { actual: 3 },
    });
    expect((await h.engine.handlers['queue.view']({})).queuedTotal).toBe(3);
    expect(await h.engine.handlers['queue.cancelQueued']({ expected: 3 })).toEqual({ cancelled: 3 });
    const view = await h.engine.handlers['queue.view']({});
    expect(view.queuedTotal).toBe(0);
    expect(view.running).toHaveLength(1);
    running.finish();
    expect(main.calls.map((r) => r.prompt)).toEqual(['running']);
  });

  it('skipping the running job cancels it and the queue goes on', async () => {
    const { main, h } = await twoProviders(1);
    const skipped = (await h.engine.handlers['jobs.submit']({ ...base, prompt: 'skip me' })).job.id;
    const next = (await h.engine.handlers['jobs.submit']({ ...base, prompt: 'next' })).job.id;
    await main.started('skip me');
    await h.engine.handlers['jobs.cancel']({ id: skipped });
    (await main.started('next')).finish();
    expect((await waitForStatus(h.engine, skipped, ['cancelled'])).status).toBe('cancelled');
    expect((await waitForStatus(h.engine, next, ['succeeded'])).status).toBe('succeeded');
  });

  it('holds a provider that answered 429 for as long as it asked, and shows the back-off', async () => {
    const busy = new AppError('provider_rate_limited', 'Slow down.', {
      retryable: true,
      details: { retryAfterMs: 1_000 },
    });
    const provider = createScriptedProvider('scripted', [
      { kind: 'fail', error: busy },
      { kind: 'succeed' },
      { kind: 'succeed' },
    ]);
    h = await startHarness({
      providers: [{ provider, defaults: { enabled: true, timeoutMs: 60_000, concurrency: 2 } }],
    });
    const events = controlEvents(h);
    const before = Date.now();
    const first = (await h.engine.handlers['jobs.submit']({ ...base, prompt: 'first' })).job.id;
    await waitFor(() => events.some((e) => e.providers.some((p) => p.hold?.kind === 'backoff')));
    const hold = events.find((e) => e.providers.some((p) => p.hold?.kind === 'backoff'))!.providers[0]!.hold!;
    expect(hold.message).toMatch(/asked Atelier to slow down/);
    // As long as it asked: the 429 came after `before`, and the hold lasts its 1 s from then.
    expect(hold.until).toBeGreaterThanOrEqual(before + 1_000);
    const second = (await h.engine.handlers['jobs.submit']({ ...base, prompt: 'second' })).job.id;
    await waitForStatus(h.engine, first, ['succeeded']);
    await waitForStatus(h.engine, second, ['succeeded']);
    // The second job was sent only after the back-off ended.
    expect(provider.calls).toHaveLength(3);
    expect((await h.engine.handlers['jobs.get']({ id: second })).startedAt).toBeGreaterThanOrEqual(hold.until!);
  });

  it('limits jobs started per minute and shows the limit as a hold', async () => {
    const { main, h } = await twoProviders(4);
    await h.engine.handlers['settings.update']({ providers: { scripted: { perMinute: 2 } } });
    for (const prompt of ['one', 'two', 'three']) await h.engine.handlers['jobs.submit']({ ...base, prompt });
    await main.started('one');
    await main.started('two');
    const view = await waitFor(async () => {
      const v = await h.engine.handlers['queue.view']({});
      return v.control.providers.find((p) => p.id === 'scripted')?.hold?.kind === 'rate' ? v : undefined;
    });
    const state = view.control.providers.find((p) => p.id === 'scripted')!;
    expect(state).toMatchObject({ perMinute: 2, limit: 4, running: 2, queued: 1 });
    expect(main.calls.map((r) => r.prompt)).toEqual(['one', 'two']);
  });
});

describe("a provider's own in-flight limit", () => {
  it('runs at most 24 BFL tasks per key at once, whatever the concurrency setting says, and shows 24 as its limit', async () => {
    const fake = await startFakeBfl({ apiKey: 'bfl-limit-key-0123456789' });
    try {
      fake.setScenario({ kind: 'pending_forever' });
      h = await startHarness({ providers: defaultProviders() });
      await h.engine.handlers['settings.update']({
        concurrency: { global: 64 },
        providers: { bfl: { apiKey: 'bfl-limit-key-0123456789', baseUrl: fake.url, concurrency: 32 } },
      });
      for (let i = 0; i < 30; i += 1) {
        await h.engine.handlers['jobs.submit']({
          provider: 'bfl',
          model: 'flux-2-pro',
          prompt: `task ${i}`,
          width: 1024,
          height: 1024,
          count: 1,
        });
      }
      await waitFor(() => new Set(fake.polls().map((p) => p.query['id'])).size === 24);
      const view = await h.engine.handlers['queue.view']({});
      expect(view.running).toHaveLength(24);
      expect(view.queuedTotal).toBe(6);
      expect(view.control.providers.find((p) => p.id === 'bfl')).toMatchObject({ limit: 24, running: 24, queued: 6 });
      expect(fake.submits()).toHaveLength(24);
    } finally {
      await h?.cleanup();
      h = undefined;
      await fake.close();
    }
  });
});
