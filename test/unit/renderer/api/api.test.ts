import { describe, expect, it, vi } from 'vitest';
import type { AtelierBridge } from '../../../../shared/bridge';
import { AppError } from '../../../../shared/errors';
import { createApi } from '../../../../renderer/src/api';
import { backoffDelay, type EventSourceLike } from '../../../../renderer/src/api/event-stream';
import { createHttpApi } from '../../../../renderer/src/api/http-api';
import { makeJob } from '../helpers';

class FakeEventSource implements EventSourceLike {
  static made: FakeEventSource[] = [];
  readyState = 0;
  closed = false;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  readonly handlers = new Map<string, (event: MessageEvent) => void>();
  constructor(readonly url: string) {
    FakeEventSource.made.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.handlers.set(type, listener);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({} as Event);
  }
  fail() {
    this.onerror?.({} as Event);
  }
  send(type: string, data: unknown) {
    this.handlers.get(type)?.({ data: typeof data === 'string' ? data : JSON.stringify(data) } as MessageEvent);
  }
}

function manualTimers() {
  const pending: { fn: () => void; ms: number }[] = [];
  return {
    pending,
    timers: {
      setTimeout: (fn: () => void, ms: number) => {
        const entry = { fn, ms };
        pending.push(entry);
        return entry;
      },
      clearTimeout: (handle: unknown) => {
        const i = pending.indexOf(handle as { fn: () => void; ms: number });
        if (i !== -1) pending.splice(i, 1);
      },
    },
    runNext() {
      const next = pending.shift();
      next?.fn();
      return next?.ms;
    },
  };
}

function jsonResponse(status: number, body: unknown) {
  return { ok: status < 400, status, json: async () => body };
}

function httpApi(fetchImpl: (url: string, init: RequestInit) => Promise<ReturnType<typeof jsonResponse>>) {
  FakeEventSource.made = [];
  const clock = manualTimers();
  const api = createHttpApi({ fetch: fetchImpl, eventSource: (url) => new FakeEventSource(url), timers: clock.timers });
  return { api, clock };
}

describe('api module over HTTP + SSE (browser host)', () => {
  it('posts the input to /api/<channel> with same-origin credentials and returns the unwrapped value', async () => {
    const fetchSpy = vi.fn(async () => jsonResponse(200, { ok: true, value: { updated: 2 } }));
    const { api } = httpApi(fetchSpy);
    const ids = [makeJob().id, makeJob().id];
    await expect(api.call('jobs.trash', { ids })).resolves.toEqual({ updated: 2 });
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    const [url, init] = fetchSpy.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/jobs.trash');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(JSON.parse(String(init.body))).toEqual({ ids });
    expect(api.host).toBe('browser');
  });

  it('rethrows a failure as an AppError with its code and details', async () => {
    const error = {
      code: 'invalid_request',
      message: 'Write a prompt.',
      retryable: false,
      details: { fields: { prompt: 'Write a prompt.' } },
    };
    const { api } = httpApi(async () => jsonResponse(400, { ok: false, error }));
    const thrown = await api.call('jobs.stats', {}).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({
      code: 'invalid_request',
      message: 'Write a prompt.',
      details: { fields: { prompt: 'Write a prompt.' } },
    });
  });

  it('turns a network failure and an unreadable answer into clear AppErrors', async () => {
    const down = httpApi(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(down.api.call('jobs.stats', {})).rejects.toMatchObject({
      code: 'provider_unavailable',
      retryable: true,
    });
    const garbled = httpApi(async () => ({
      ok: false,
      status: 502,
      json: async () => JSON.parse('<html>') as unknown,
    }));
    await expect(garbled.api.call('jobs.stats', {})).rejects.toMatchObject({
      code: 'internal',
      message: expect.stringContaining('502'),
    });
    const odd = httpApi(async () => jsonResponse(200, { hello: 'world' }));
    await expect(odd.api.call('jobs.stats', {})).rejects.toMatchObject({ code: 'internal' });
  });

  it('builds media URLs under /media/<kind>/<id>', () => {
    const { api } = httpApi(async () => jsonResponse(200, {}));
    expect(api.mediaUrl('thumb', 'abc')).toBe('/media/thumb/abc');
    expect(api.mediaUrl('preview', 'a/b')).toBe('/media/preview/a%2Fb');
  });

  it('opens one event stream lazily and delivers typed payloads to each subscriber', () => {
    const { api } = httpApi(async () => jsonResponse(200, {}));
    expect(FakeEventSource.made).toHaveLength(0);
    const changed = vi.fn();
    const progress = vi.fn();
    const offChanged = api.on('jobs.changed', changed);
    api.on('jobs.progress', progress);
    expect(FakeEventSource.made).toHaveLength(1);
    const source = FakeEventSource.made[0]!;
    expect(source.url).toBe('/api/events');
    const job = makeJob();
    source.send('jobs.changed', { job });
    source.send('jobs.progress', { id: job.id, stage: 'sampling', partialImages: 0 });
    source.send('jobs.changed', 'not json');
    expect(changed).toHaveBeenCalledWith({ job });
    expect(changed).toHaveBeenCalledTimes(1);
    expect(progress).toHaveBeenCalledTimes(1);
    offChanged();
    source.send('jobs.changed', { job });
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it('reconnects with growing backoff after a drop, reports offline/online and a reconnect', () => {
    const { api, clock } = httpApi(async () => jsonResponse(200, {}));
    const reconnects = vi.fn();
    const online: boolean[] = [];
    api.on('jobs.changed', () => undefined);
    api.onReconnect(reconnects);
    api.onConnectionChange((value) => online.push(value));
    const first = FakeEventSource.made[0]!;
    first.open();
    expect(reconnects).not.toHaveBeenCalled();

    first.fail();
    expect(first.closed).toBe(true);
    expect(online).toEqual([false]);
    expect(clock.runNext()).toBe(backoffDelay(0));
    const second = FakeEventSource.made[1]!;
    second.fail();
    expect(clock.runNext()).toBe(backoffDelay(1));
    expect(backoffDelay(1)).toBeGreaterThan(backoffDelay(0));
    const third = FakeEventSource.made[2]!;
    third.open();
    expect(online).toEqual([false, true]);
    expect(reconnects).toHaveBeenCalledTimes(1);

    // After a successful open the backoff starts over.
    third.fail();
    expect(clock.runNext()).toBe(backoffDelay(0));
    expect(backoffDelay(100)).toBe(backoffDelay(5));
  });
});

describe('api module over window.atelier (desktop host)', () => {
  function fakeBridge() {
    const listeners: Record<string, ((payload: unknown) => void) | undefined> = {};
    const bridge = {
      'jobs.stats': vi.fn(async () => ({ ok: true, value: { total: 3 } })),
      'jobs.get': vi.fn(async () => ({
        ok: false,
        error: { code: 'not_found', message: 'No such job.', retryable: false },
      })),
      onJobChanged: (cb: (payload: unknown) => void) => {
        listeners.changed = cb;
        return () => {
          listeners.changed = undefined;
        };
      },
      onJobProgress: () => () => undefined,
      onJobsRemoved: () => () => undefined,
    };
    return { bridge: bridge as unknown as AtelierBridge, raw: bridge, listeners };
  }

  const browserEnv = {
    fetch: (() => {
      throw new Error('fetch must not be used on the desktop host');
    }) as unknown as typeof fetch,
    EventSource: class {
      constructor() {
        throw new Error('EventSource must not be used on the desktop host');
      }
    } as unknown as typeof EventSource,
    setTimeout,
    clearTimeout,
  };

  it('picks window.atelier when present, unwraps results and rethrows failures as AppError', async () => {
    const { bridge, raw } = fakeBridge();
    const api = createApi({ ...browserEnv, atelier: bridge });
    expect(api.host).toBe('desktop');
    await expect(api.call('jobs.stats', {})).resolves.toEqual({ total: 3 });
    expect(raw['jobs.stats']).toHaveBeenCalledWith({});
    await expect(api.call('jobs.get', { id: makeJob().id })).rejects.toMatchObject({
      name: 'AppError',
      code: 'not_found',
    });
  });

  it('subscribes through the bridge and uses the atelier-media scheme', () => {
    const { bridge, listeners } = fakeBridge();
    const api = createApi({ ...browserEnv, atelier: bridge });
    const seen = vi.fn();
    const off = api.on('jobs.changed', seen);
    const job = makeJob();
    listeners.changed?.({ job });
    expect(seen).toHaveBeenCalledWith({ job });
    off();
    expect(listeners.changed).toBeUndefined();
    expect(api.mediaUrl('image', 'x1')).toBe('atelier-media://image/x1');
  });

  it('falls back to HTTP when there is no bridge', () => {
    const api = createApi({ ...browserEnv });
    expect(api.host).toBe('browser');
    expect(api.mediaUrl('thumb', 'x1')).toBe('/media/thumb/x1');
  });
});
