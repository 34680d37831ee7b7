import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QueueControlState, QueueView } from '../../../../shared/contract';
import { AppError } from '../../../../shared/errors';
import { createAppStore } from '../../../../renderer/src/store/store';
import { QUEUE_REFRESH_MS } from '../../../../renderer/src/store/queue-slice';
import { wireEvents } from '../../../../renderer/src/store/wire-events';
import { deferred, emptyStats, fakeApi, makeJob } from '../helpers';

const [a, b, c] = [makeJob({ status: 'queued' }), makeJob({ status: 'queued' }), makeJob({ status: 'queued' })];
const control: QueueControlState = { paused: false, providers: [] };

function view(queued = [a, b, c], over: Partial<QueueView> = {}): QueueView {
  return { running: [], queued, queuedTotal: queued.length, control, ...over };
}

function setup(handlers: Record<string, (input: unknown) => unknown> = {}) {
  const fake = fakeApi({ 'queue.view': async () => view(), ...handlers });
  const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
  return { fake, store };
}

afterEach(() => vi.useRealTimers());

describe('queue slice', () => {
  it('a move shows at once, before the engine answers, then the fresh view confirms it', async () => {
    const answer = deferred<{ moved: number }>();
    const { fake, store } = setup({ 'queue.reorder': () => answer.promise });
    await store.getState().loadQueue();
    const moving = store.getState().reorderQueue([c.id], a.id);
    expect(store.getState().queue!.queued.map((j) => j.id)).toEqual([c.id, a.id, b.id]);
    expect(fake.calls.at(-1)).toEqual({ channel: 'queue.reorder', input: { ids: [c.id], before: a.id } });
    answer.resolve({ moved: 1 });
    await moving;
    expect(fake.calls.at(-1)!.channel).toBe('queue.view');
  });

  it('a view that left before a move is dropped, so the move shown is not undone by it', async () => {
    const slow = deferred<QueueView>();
    let first = true;
    const { store } = setup({
      'queue.view': () => {
        if (!first) return view([c, a, b]);
        first = false;
        return slow.promise;
      },
      'queue.reorder': async () => ({ moved: 1 }),
    });
    store.setState({ queue: view() });
    const stale = store.getState().loadQueue();
    const moving = store.getState().reorderQueue([c.id], a.id);
    slow.resolve(view());
    await stale;
    expect(store.getState().queue!.queued.map((j) => j.id)).toEqual([c.id, a.id, b.id]);
    await moving;
    expect(store.getState().queue!.queued.map((j) => j.id)).toEqual([c.id, a.id, b.id]);
  });

  it('cancel all queued sends the confirmed count; a changed queue answers with its new count and cancels nothing', async () => {
    const { fake, store } = setup({
      'queue.cancelQueued': async (input) => {
        const { expected } = input as { expected: number };
        if (expected !== 4) {
          throw new AppError('conflict', 'The queue holds 4 jobs now', { details: { expected, actual: 4 } });
        }
        return { cancelled: 4 };
      },
    });
    expect(await store.getState().cancelQueued(3)).toEqual({ actual: 4 });
    expect(await store.getState().cancelQueued(4)).toEqual({ cancelled: 4 });
    expect(fake.calls.filter((call) => call.channel === 'queue.cancelQueued').map((call) => call.input)).toEqual([
      { expected: 3 },
      { expected: 4 },
    ]);
    expect(store.getState().toasts).toEqual([]);
  });

  it('another failure of cancel all is shown and answers null', async () => {
    const { store } = setup({
      'queue.cancelQueued': async () => {
        throw new AppError('internal', 'The database is busy.');
      },
    });
    expect(await store.getState().cancelQueued(3)).toBeNull();
    expect(store.getState().toasts.map((t) => t.message)).toEqual(['The database is busy.']);
  });

  it('pausing the whole queue or one provider sends the target and shows the state it answers', async () => {
    const paused: QueueControlState = {
      paused: false,
      providers: [{ id: 'bfl', running: 0, queued: 2, limit: 1, hold: { kind: 'paused', message: 'Paused' } }],
    };
    const { fake, store } = setup({
      'queue.pause': async () => paused,
      'queue.resume': async () => control,
    });
    await store.getState().loadQueue();
    await store.getState().pauseQueue('bfl');
    expect(store.getState().queue!.control).toEqual(paused);
    await store.getState().resumeQueue();
    expect(store.getState().queue!.control).toEqual(control);
    const sent = fake.calls.filter((call) => call.channel.startsWith('queue.p') || call.channel === 'queue.resume');
    expect(sent).toEqual([
      { channel: 'queue.pause', input: { provider: 'bfl' } },
      { channel: 'queue.resume', input: {} },
    ]);
  });

  it('a queue.control event shows the new holds at once, and a burst of job events fetches the queue once', async () => {
    vi.useFakeTimers();
    const { fake, store } = setup({
      'jobs.list': async () => ({ items: [], nextCursor: null }),
      'jobs.stats': async () => emptyStats,
      'settings.get': async () => ({}),
      'providers.list': async () => ({ providers: [] }),
    });
    const off = wireEvents(store, fake.api, { setTimeout: () => 0, clearTimeout: () => undefined });
    await vi.waitFor(() => expect(store.getState().queue).not.toBeNull());
    const views = () => fake.calls.filter((call) => call.channel === 'queue.view').length;
    const before = views();
    const held: QueueControlState = { paused: true, providers: [] };
    fake.emit('queue.control', held);
    expect(store.getState().queue!.control).toEqual(held);
    await vi.advanceTimersByTimeAsync(QUEUE_REFRESH_MS);
    expect(views()).toBe(before + 1);
    for (const job of [a, b, c]) fake.emit('jobs.changed', { job: { ...job, status: 'running' } });
    await vi.advanceTimersByTimeAsync(QUEUE_REFRESH_MS);
    expect(views()).toBe(before + 2);
    off();
  });
});
