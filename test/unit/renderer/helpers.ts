import type { EventName, Events, JobSummary, Stats } from '../../../shared/contract';
import type { Api } from '../../../renderer/src/api';

let counter = 0;

/** A UUID-shaped id that sorts with creation order, like the engine's UUIDv7s. */
export function idFor(n: number): string {
  const hex = n.toString(16).padStart(12, '0');
  return `00000000-0000-7000-8000-${hex}`;
}

export function makeJob(overrides: Partial<JobSummary> = {}): JobSummary {
  counter += 1;
  const createdAt = overrides.createdAt ?? 1_700_000_000_000 + counter * 1000;
  return {
    id: idFor(counter),
    status: 'succeeded',
    createdAt,
    updatedAt: createdAt,
    provider: 'builtin',
    prompt: `a prompt number ${counter}`,
    width: 512,
    height: 512,
    count: 1,
    favorite: false,
    trashedAt: null,
    images: [],
    source: 'atelier',
    ...overrides,
  };
}

type Handler = (input: unknown) => unknown;

/** An Api double: calls go to per-channel handlers (which may return promises the test controls). */
export function fakeApi(given: Record<string, Handler> = {}) {
  // Every start-up asks for the imports; a test that cares about them hands in its own.
  const handlers: Record<string, Handler> = { 'library.imports': async () => ({ items: [] }), ...given };
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const reconnect = new Set<() => void>();
  const connection = new Set<(online: boolean) => void>();
  const calls: { channel: string; input: unknown }[] = [];
  const order: string[] = [];
  const api: Api = {
    host: 'browser',
    call: (async (channel: string, input: unknown) => {
      calls.push({ channel, input });
      order.push(`call:${channel}`);
      const handler = handlers[channel];
      if (handler === undefined) throw new Error(`No fake for ${channel}`);
      return handler(input);
    }) as Api['call'],
    on: ((event: string, listener: (payload: unknown) => void) => {
      order.push(`on:${event}`);
      let set = listeners.get(event);
      if (set === undefined) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    }) as Api['on'],
    onReconnect: (listener) => {
      reconnect.add(listener);
      return () => reconnect.delete(listener);
    },
    onConnectionChange: (listener) => {
      connection.add(listener);
      return () => connection.delete(listener);
    },
    mediaUrl: (kind, id) => `/media/${kind}/${id}`,
    pathsForFiles: () => [],
    onMenuCommand: () => () => undefined,
  };
  return {
    api,
    calls,
    order,
    emit<E extends EventName>(event: E, payload: Events[E]) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
    reconnect() {
      for (const listener of reconnect) listener();
    },
    setOnline(online: boolean) {
      for (const listener of connection) listener(online);
    },
    listenerCount: (event: string) => listeners.get(event)?.size ?? 0,
  };
}

/** A promise the test resolves when it chooses. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Stats of an empty, healthy library. */
export const emptyStats: Stats = {
  byStatus: {},
  total: 0,
  trashed: 0,
  favorites: 0,
  images: 0,
  databaseBytes: 0,
  mediaBytes: 0,
  missingFiles: 0,
  orphans: { files: 0, bytes: 0 },
  recovery: { state: 'ok', libraryFiles: 0, unknownFiles: 0 },
} as Stats;
