import type { ChannelName, ChannelOutput, ChannelRequest } from '../../../shared/contract';
import { AppError, type Result, unwrap } from '../../../shared/errors';
import { EventStream, type EventSourceFactory, type Timers } from './event-stream';
import type { Api } from './types';

export type FetchLike = (url: string, init: RequestInit) => Promise<Pick<Response, 'ok' | 'status' | 'json'>>;

export interface HttpApiOptions {
  fetch: FetchLike;
  eventSource: EventSourceFactory;
  timers: Timers;
  /** Origin-relative prefix; '' on the headless host. */
  base?: string;
}

function isResult(value: unknown): value is Result<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

/** The headless host: POST /api/<channel>, SSE on /api/events, media under /media; the auth cookie rides along. */
export function createHttpApi(options: HttpApiOptions): Api & { readonly stream: EventStream } {
  const base = options.base ?? '';
  const stream = new EventStream(`${base}/api/events`, options.eventSource, options.timers);
  return {
    host: 'browser',
    stream,
    async call<C extends ChannelName>(channel: C, input: ChannelRequest<C>): Promise<ChannelOutput<C>> {
      let response: Awaited<ReturnType<FetchLike>>;
      try {
        response = await options.fetch(`${base}/api/${channel}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(input ?? {}),
        });
      } catch (cause) {
        throw new AppError('provider_unavailable', 'Atelier cannot be reached. Is it still running?', {
          retryable: true,
          cause,
        });
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch (cause) {
        throw new AppError('internal', `Atelier answered ${response.status} without a readable body.`, { cause });
      }
      if (!isResult(body)) throw new AppError('internal', `Atelier answered ${response.status} in an unknown shape.`);
      return unwrap(body) as ChannelOutput<C>;
    },
    on: (event, listener) => stream.on(event, listener),
    onReconnect: (listener) => stream.reconnected.add(listener),
    onConnectionChange: (listener) => {
      stream.ensureOpen();
      return stream.connection.add(listener);
    },
    mediaUrl: (kind, imageId) => `${base}/media/${kind}/${encodeURIComponent(imageId)}`,
    // A page is never told where a dropped file lives: the person types the folder's path instead.
    pathsForFiles: () => [],
    onMenuCommand: () => () => undefined,
  };
}
