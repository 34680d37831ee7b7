import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer, type ServeOptions } from '../../../electron/serve/server.js';
import { createFakeEngine, type FakeEngine } from '../../fakes/engine.js';

export const TOKEN = 'test-token-0123456789abcdefghijklmnop';
export const ID = '0190a6e2-0000-7000-8000-000000000001';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json(): unknown;
}

export interface Call {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send with the bearer token unless false. */
  auth?: boolean;
}

export interface Harness {
  root: string;
  engine: FakeEngine;
  server: RunningServer;
  call(options: Call): Promise<Reply>;
  api(channel: string, body: unknown): Promise<Reply>;
  close(): Promise<void>;
}

export async function startHarness(overrides: Partial<ServeOptions> = {}): Promise<Harness> {
  const root = await mkdtemp(join(tmpdir(), 'atelier-serve-'));
  const rendererDir = join(root, 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Atelier</title><div id="root"></div>');
  await writeFile(join(rendererDir, 'assets', 'index-abc123.js'), 'console.log("atelier")');
  await mkdir(join(root, 'data'), { recursive: true });
  const engine = createFakeEngine(join(root, 'data'));
  const server = await startServer({ engine, rendererDir, token: TOKEN, ...overrides });

  const call = (options: Call): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { host: `127.0.0.1:${server.port}`, ...options.headers };
      if (options.auth !== false) headers.authorization ??= `Bearer ${TOKEN}`;
      const req = httpRequest(
        { host: '127.0.0.1', port: server.port, method: options.method ?? 'GET', path: options.path, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
          });
        },
      );
      req.on('error', reject);
      req.end(options.body);
    });

  return {
    root,
    engine,
    server,
    call,
    api: (channel, body) =>
      call({
        method: 'POST',
        path: `/api/${channel}`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    async close() {
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
