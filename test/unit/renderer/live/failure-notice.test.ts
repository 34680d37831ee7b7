import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ListPage } from '../../../../shared/contract';
import { clampWords } from '../../../../renderer/src/live/failure-notice';
import { EMPTY_JOBS } from '../../../../renderer/src/store/jobs-model';
import { createAppStore } from '../../../../renderer/src/store/store';
import { wireEvents } from '../../../../renderer/src/store/wire-events';
import { fakeApi, flush, makeJob, emptyStats } from '../helpers';

function setup(look: { hidden: boolean; onScreen: boolean }) {
  const fake = fakeApi({
    'jobs.list': async (): Promise<ListPage> => ({ items: [], nextCursor: null }),
    'jobs.stats': async () => emptyStats,
    'settings.get': async () => ({
      concurrency: { global: 1 },
      retention: { trashAutoEmptyDays: 30, maxJobs: null, maxBytes: null, maxAgeDays: null },
      theme: 'system',
      providers: {},
      library: { xmpSidecars: false },
      dataDir: '/d',
    }),
    'providers.list': async () => ({ providers: [] }),
  });
  const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
  const timers: (() => void)[] = [];
  wireEvents(store, fake.api, {
    setTimeout: (fn) => timers.push(fn),
    clearTimeout: () => undefined,
    attention: { hidden: () => look.hidden, onScreen: () => look.onScreen },
  });
  const runTimers = () => {
    for (const fn of timers.splice(0)) fn();
  };
  return { fake, store, runTimers };
}

function failing() {
  const running = makeJob({ status: 'running', prompt: 'a lighthouse in a storm' });
  const failed = {
    ...running,
    status: 'failed' as const,
    updatedAt: running.updatedAt + 5,
    completedAt: running.updatedAt + 5,
    error: { code: 'provider_unavailable' as const, message: 'Nothing answers at 127.0.0.1:7860.' },
  };
  return { running, failed };
}

describe('a failure the person may not have seen', () => {
  it('gets one toast, with Show, when the viewer covers the grid; Show closes the viewer and reveals the card', async () => {
    const look = { hidden: false, onScreen: true };
    const { fake, store, runTimers } = setup(look);
    await flush();
    const { running, failed } = failing();
    fake.emit('jobs.changed', { job: running });
    store.getState().openViewer(running.id);
    fake.emit('jobs.changed', { job: failed });
    runTimers();
    const toasts = store.getState().toasts;
    expect(toasts.map((t) => [t.kind, t.message, t.action?.label])).toEqual([
      ['error', '“a lighthouse in a storm” failed: Nothing answers at 127.0.0.1:7860.', 'Show'],
    ]);
    // Replayed (a reconnect, a second client), even after the grid dropped what it held (a new filter): still one.
    fake.emit('jobs.changed', { job: { ...failed, updatedAt: failed.updatedAt + 1 } });
    store.setState({ jobs: EMPTY_JOBS });
    fake.emit('jobs.changed', { job: failed });
    runTimers();
    expect(store.getState().toasts).toHaveLength(1);

    toasts[0]!.action!.run();
    await flush();
    expect(store.getState().viewerId).toBeNull();
    expect(store.getState().revealed).toEqual({ id: failed.id, seq: 1 });
    expect(store.getState().focusedJobId).toBe(failed.id);
  });

  it('gets a toast when the tab is hidden or the card is off screen, none when the person is looking at it', async () => {
    for (const [look, expected] of [
      [{ hidden: false, onScreen: true }, 0],
      [{ hidden: true, onScreen: true }, 1],
      [{ hidden: false, onScreen: false }, 1],
    ] as const) {
      const { fake, store, runTimers } = setup({ ...look });
      await flush();
      const { running, failed } = failing();
      fake.emit('jobs.changed', { job: running });
      fake.emit('jobs.changed', { job: failed });
      runTimers();
      expect(store.getState().toasts, JSON.stringify(look)).toHaveLength(expected);
    }
  });

  it('no toast for old failures: a page load, a star or a trash of a job that failed long ago', async () => {
    const { fake, store, runTimers } = setup({ hidden: true, onScreen: false });
    await flush();
    const { failed } = failing();
    store.getState().applyJobChanged(failed);
    fake.emit('jobs.changed', { job: { ...failed, favorite: true, updatedAt: failed.updatedAt + 100 } });
    const unseenOld = makeJob({
      status: 'failed',
      completedAt: 10,
      updatedAt: 20,
      error: { code: 'provider_error', message: 'x' },
    });
    fake.emit('jobs.changed', { job: unseenOld });
    runTimers();
    expect(store.getState().toasts).toEqual([]);
  });
});

describe('clampWords', () => {
  it('keeps short text whole and cuts long text after a whole word', () => {
    expect(clampWords('Nothing answers.', 40)).toBe('Nothing answers.');
    expect(clampWords('Atelier could not reach AUTOMATIC1111 at its address', 30)).toBe('Atelier could not reach…');
    expect(clampWords('Supercalifragilistic', 8)).toBe('Superca…');
  });

  it('never ends inside a word that was longer in the original, and never exceeds the budget', () => {
    const word = fc.stringMatching(/^[a-zA-Z0-9.:/-]{1,12}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 40 }), fc.integer({ min: 14, max: 200 }), (words, max) => {
        const text = words.join(' ');
        const out = clampWords(text, max);
        expect(out.length).toBeLessThanOrEqual(max);
        if (out === text) return;
        expect(out.endsWith('…')).toBe(true);
        const shown = out.slice(0, -1).split(' ');
        // Every shown word is the original's word at that place (trailing punctuation may be trimmed from the last).
        shown.forEach((w, i) => {
          if (i < shown.length - 1) expect(w).toBe(words[i]);
          else
            expect(words[i]!.startsWith(w) && (w === words[i] || /^[,;:.–—-]+$/.test(words[i]!.slice(w.length)))).toBe(
              true,
            );
        });
      }),
    );
  });
});

describe('provider status in the picker', () => {
  it('a job that succeeds where the list said Failing fetches the engine’s new word', async () => {
    let listed: 'failing' | 'ready' = 'failing';
    const fake = fakeApi({
      'jobs.list': async (): Promise<ListPage> => ({ items: [], nextCursor: null }),
      'jobs.stats': async () => emptyStats,
      'settings.get': async () => ({
        concurrency: { global: 1 },
        retention: { trashAutoEmptyDays: 30, maxJobs: null, maxBytes: null, maxAgeDays: null },
        theme: 'system',
        providers: {},
        library: { xmpSidecars: false },
        dataDir: '/d',
      }),
      'providers.list': async () => ({
        providers: [
          {
            id: 'a1111',
            name: 'A1111',
            enabled: true,
            configured: true,
            models: [],
            capabilities: {
              sizes: { min: 64, max: 64, multipleOf: 8, presets: [] },
              maxCount: 1,
              seed: true,
              negativePrompt: true,
              maxPartialImages: 0,
              outputFormats: ['png'],
            },
            status: { state: listed },
          },
        ],
      }),
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    wireEvents(store, fake.api, {
      setTimeout: () => undefined,
      clearTimeout: () => undefined,
      attention: { hidden: () => false, onScreen: () => true },
    });
    await flush();
    expect(store.getState().providers[0]?.status.state).toBe('failing');
    listed = 'ready';
    const done = makeJob({ provider: 'a1111', status: 'succeeded' });
    fake.emit('jobs.changed', { job: { ...done, completedAt: done.updatedAt } });
    await flush();
    expect(store.getState().providers[0]?.status.state).toBe('ready');
  });
});
