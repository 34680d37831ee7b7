import type { AtelierBridge } from '../../../shared/bridge';
import { createDesktopApi } from './desktop-api';
import { createHttpApi } from './http-api';
import type { Api } from './types';

export type { Api, HostKind, Unsubscribe } from './types';

export interface HostEnvironment {
  atelier?: AtelierBridge;
  fetch: typeof fetch;
  EventSource: typeof EventSource;
  setTimeout: typeof setTimeout;
  clearTimeout: typeof clearTimeout;
}

/** Picks the host: the Electron preload's window.atelier when present, otherwise HTTP + SSE to the page's origin. */
export function createApi(env: HostEnvironment): Api {
  if (env.atelier !== undefined) return createDesktopApi(env.atelier);
  return createHttpApi({
    fetch: (url, init) => env.fetch(url, init),
    eventSource: (url) => new env.EventSource(url, { withCredentials: true }),
    timers: {
      setTimeout: (fn, ms) => env.setTimeout(fn, ms),
      clearTimeout: (handle) => env.clearTimeout(handle as ReturnType<typeof setTimeout>),
    },
  });
}

export function createBrowserApi(): Api {
  const win = window as unknown as { atelier?: AtelierBridge };
  return createApi({
    ...(win.atelier === undefined ? {} : { atelier: win.atelier }),
    fetch: window.fetch.bind(window),
    EventSource: window.EventSource,
    setTimeout: window.setTimeout.bind(window) as typeof setTimeout,
    clearTimeout: window.clearTimeout.bind(window) as typeof clearTimeout,
  });
}
