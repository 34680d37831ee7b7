import type { ServerResponse } from 'node:http';
import { EVENT_NAMES } from '../../shared/contract.js';
import type { EngineEvents } from '../engine/types.js';

/** A client that cannot keep up is dropped (it reconnects and refetches) rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export interface SseHub {
  attach(res: ServerResponse): void;
  readonly size: number;
  close(): void;
}

/** Fans engine events out to every connected EventSource as `event: <name>` + JSON `data:` frames. */
export function createSseHub(events: EngineEvents, keepaliveMs: number): SseHub {
  const clients = new Set<ServerResponse>();
  const drop = (res: ServerResponse): void => {
    clients.delete(res);
    if (!res.writableEnded) res.end();
  };
  const send = (frame: string): void => {
    for (const res of clients) {
      if (res.writableLength > MAX_BUFFERED_BYTES) drop(res);
      else res.write(frame);
    }
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
      res.write(': connected\n\n');
      clients.add(res);
      res.on('close', () => clients.delete(res));
    },
    get size() {
      return clients.size;
    },
    close() {
      clearInterval(keepalive);
      for (const unsubscribe of unsubscribes) unsubscribe();
      for (const res of [...clients]) drop(res);
    },
  };
}
