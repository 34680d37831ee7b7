import type { ServerResponse } from 'node:http';
import { EVENT_NAMES } from '../../shared/contract.js';
import type { EngineEvents } from '../base/events.js';

/** A client that cannot keep up is dropped (it reconnects and refetches) rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** Frames within this long of the last write share the next one (events reach the page at most this much later). */
export const SSE_COALESCE_MS = 25;

export interface SseHub {
  attach(res: ServerResponse): void;
  readonly size: number;
  close(): void;
}

/** Fans engine events out to every connected EventSource as `event: <name>` + JSON `data:` frames. */
export function createSseHub(events: EngineEvents, keepaliveMs: number, coalesceMs = SSE_COALESCE_MS): SseHub {
  const clients = new Set<ServerResponse>();
  const drop = (res: ServerResponse): void => {
    clients.delete(res);
    if (!res.writableEnded) res.end();
  };
  // Every write to a client is a syscall that also wakes the reader. Frames are therefore gathered for up to
  // coalesceMs after a write and sent as one chunk per client: a burst of hundreds of events costs a few writes,
  // and a quiet stream still gets its first frame on the next turn of the loop.
  let pending: string[] = [];
  let lastFlush = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const chunk = pending.join('');
    pending = [];
    lastFlush = performance.now();
    for (const res of clients) {
      if (res.writableLength > MAX_BUFFERED_BYTES) drop(res);
      else res.write(chunk);
    }
  };
  const send = (frame: string): void => {
    if (clients.size === 0) return;
    pending.push(frame);
    if (timer === undefined) timer = setTimeout(flush, Math.max(0, lastFlush + coalesceMs - performance.now()));
  };
  const unsubscribes = EVENT_NAMES.map((name) =>
    events.on(name, (payload) => send(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`)),
  );
  // Comments keep proxies and idle timeouts from closing a quiet stream.
  const keepalive = setInterval(() => send(': keepalive\n\n'), keepaliveMs);
  keepalive.unref();

  return {
    attach(res) {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      // Frames from before it connected go to the others first: a new client starts from now, as it always did.
      flush();
      res.write(': connected\n\n');
      clients.add(res);
      res.on('close', () => clients.delete(res));
    },
    get size() {
      return clients.size;
    },
    close() {
      clearInterval(keepalive);
      flush();
      for (const unsubscribe of unsubscribes) unsubscribe();
      for (const res of [...clients]) drop(res);
    },
  };
}
