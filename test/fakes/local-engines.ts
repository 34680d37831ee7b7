import { createServer as createHttpServer, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createConnection, createServer as createTcpServer, type Server, type Socket } from 'node:net';
import type { EngineKind } from '../../shared/contract.js';

/** What each engine answers to the probe's identifying request (their real shapes, trimmed). */
export const IDENTIFYING_ANSWERS = {
  comfyui: (version: string) => ({
    path: '/system_stats',
    body: { system: { os: 'posix', comfyui_version: version, python_version: '3.12.3' }, devices: [] },
  }),
  a1111: (version: string) => ({
    path: '/internal/sysinfo',
    body: { Platform: 'Linux', Python: '3.10.6', Version: version, Commit: '82a973c' },
  }),
  swarmui: (version: string) => ({
    path: '/API/GetNewSession',
    body: { session_id: 'F00D', user_id: 'local', version, server_id: 'abc', permissions: [] },
  }),
  invokeai: (version: string) => ({ path: '/api/v1/app/version', body: { version, highlights: [] } }),
} satisfies Record<EngineKind, (version: string) => { path: string; body: unknown }>;

export interface LocalServer {
  port: number;
  /** Requests seen, as "METHOD /path". */
  requests: string[];
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:port (0: any free port); a taken port fails with a sentence naming it. */
async function listen(server: Server | HttpServer, port: number, what: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${port} on 127.0.0.1 is taken by another program: stop it to run this test (${what}).`)
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function closer(server: Server | HttpServer, sockets: Set<Socket>): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

/** A fake engine that answers only its identifying request; `answer` overrides what it says (hostile tests). */
export async function startLocalEngine(
  kind: EngineKind,
  options: { port?: number; version?: string; answer?: (res: ServerResponse) => void } = {},
): Promise<LocalServer> {
  const { path, body } = IDENTIFYING_ANSWERS[kind](options.version ?? '1.2.3');
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => {
      if (options.answer !== undefined) return options.answer(res);
      if ((req.url ?? '').split('?')[0] !== path) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  const port = await listen(server, options.port ?? 0, `a fake ${kind}`);
  return { port, requests, close: closer(server, sockets) };
}

/** Passes every connection on 127.0.0.1:port through to another local port (a full fake behind a real port). */
export async function forwardPort(port: number, targetPort: number): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const bound = await listen(server, port, 'a fake ComfyUI');
  return { port: bound, requests: [], close: closer(server, sockets) };
}
