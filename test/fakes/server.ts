import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** One request as the fake saw it; tests assert on these (counts, bodies, headers, aborts). */
export interface LoggedRequest {
  seq: number;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body's exact bytes (a multipart upload is binary; `body` is its UTF-8 reading). */
  raw: Buffer;
  json: unknown;
  at: number;
  /** The client went away before the response finished (cancel, bound, timeout). */
  aborted: boolean;
  /** Bytes of response body the fake managed to write (for the size-bound tests). */
  bytesSent: number;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, logged: LoggedRequest) => void | Promise<void>;

export interface HttpFake {
  url: string;
  port: number;
  server: Server;
  requests: LoggedRequest[];
  /** Every answer from now on waits this long first (a distant server: bench/engines.ts). */
  setLatency(ms: number): void;
  close(): Promise<void>;
}

/**
 * A loopback HTTP server on 127.0.0.1:0 that logs every request (body read first) and tracks its sockets so
 * close() never hangs on a keep-alive or a deliberately stalled response.
 */
export async function startHttpFake(
  handler: Handler,
  onUpgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void,
): Promise<HttpFake> {
  const requests: LoggedRequest[] = [];
  const sockets = new Set<Socket>();
  let seq = 0;
  let latencyMs = 0;
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const raw = Buffer.concat(parts);
      const body = raw.toString('utf8');
      let json: unknown;
      try {
        json = body === '' ? undefined : (JSON.parse(body) as unknown);
      } catch {
        json = undefined;
      }
      const logged: LoggedRequest = {
        seq: (seq += 1),
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body,
        raw,
        json,
        at: Date.now(),
        aborted: false,
        bytesSent: 0,
      };
      requests.push(logged);
      res.on('close', () => {
        if (!res.writableFinished) logged.aborted = true;
      });
      const answer = (): void => {
        Promise.resolve(handler(req, res, logged)).catch((error: unknown) => {
          if (!res.headersSent) {
            res.writeHead(500, { 'content-type': 'text/plain' });
            res.end(`fake handler failed: ${String(error)}`);
          } else res.destroy();
        });
      };
      if (latencyMs > 0) setTimeout(answer, latencyMs);
      else answer();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  if (onUpgrade !== undefined) server.on('upgrade', onUpgrade);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake server has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    server,
    requests,
    setLatency: (ms) => {
      latencyMs = Math.max(0, ms);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Writes `total` bytes lazily with backpressure (never allocating them), counting what was actually written. */
export function streamHugeBody(res: ServerResponse, logged: LoggedRequest, total: number, fill = 0x61): void {
  const block = Buffer.alloc(64 * 1024, fill);
  const pump = () => {
    while (logged.bytesSent < total && !res.destroyed) {
      const n = Math.min(block.length, total - logged.bytesSent);
      logged.bytesSent += n;
      if (!res.write(n === block.length ? block : block.subarray(0, n))) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

/** Sends a JSON response with a precise body string. */
export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** A scripted list of behaviours: each call takes the next one; the last repeats. */
export class Script<S> {
  private items: S[];
  constructor(initial: S) {
    this.items = [initial];
  }
  set(next: S | S[]): void {
    this.items = Array.isArray(next) ? [...next] : [next];
    if (this.items.length === 0) throw new Error('a script needs at least one scenario');
  }
  next(): S {
    return this.items.length > 1 ? this.items.shift()! : this.items[0]!;
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
