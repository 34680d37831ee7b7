/** The headless host's GET /api/export/<id>.zip on the real engine: token required, streamed, originals byte for byte. */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startServer, type RunningServer } from '../../../electron/serve/server.js';
import { toolFiles } from '../../fixtures/images/tool-files.js';
import { startHarness, type Harness } from '../engine/harness.js';
import { exportDone, linkedLibrary, readZipBuffer } from './helpers.js';

const TOKEN = 'export-token-0123456789abcdefghijklmnop';
let h: Harness;
let server: RunningServer | undefined;
const temps: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  await h?.cleanup();
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

async function serve(): Promise<RunningServer> {
  const rendererDir = join(h.dataDir, 'renderer-build');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Atelier</title>');
  server = await startServer({ engine: h.engine, rendererDir, token: TOKEN });
  return server;
}

async function api<T>(s: RunningServer, channel: string, body: unknown): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${s.port}/api/${channel}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const result = (await response.json()) as { ok: boolean; value: T };
  expect(result.ok).toBe(true);
  return result.value;
}

describe('downloading an export from the headless host', () => {
  it('needs the token, then streams the ZIP as an attachment with every original byte for byte', async () => {
    h = await startHarness();
    const files = await toolFiles('dl');
    temps.push(await linkedLibrary(h.engine, files));
    const s = await serve();
    const { export: started } = await api<{ export: { id: string; status: string } }>(s, 'export.start', {
      target: { query: { view: 'active' } },
      format: 'zip',
      manifest: 'json',
    });
    expect(started.status).toBe('ready');
    const url = `http://127.0.0.1:${s.port}/api/export/${started.id}.zip`;

    const refused = await fetch(url);
    expect(refused.status).toBe(401);
    const wrong = await fetch(url, { headers: { authorization: 'Bearer not-the-token-0123456789abcdefghij' } });
    expect(wrong.status).toBe(401);

    const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="atelier-export-[0-9-]+\.zip"$/);
    // Streamed: no length up front (the archive is never assembled in memory first).
    expect(response.headers.get('content-length')).toBeNull();
    const entries = readZipBuffer(Buffer.from(await response.arrayBuffer()));
    const images = entries.filter((e) => e.name !== 'manifest.json');
    expect(new Set(images.map((e) => sha(e.data)))).toEqual(new Set(files.map((f) => sha(f.bytes))));
    expect(images.every((e) => e.method === 0)).toBe(true);
    const manifest = JSON.parse(entries.find((e) => e.name === 'manifest.json')!.data.toString('utf8')) as {
      images: unknown[];
    };
    expect(manifest.images).toHaveLength(files.length);

    const done = await exportDone(h.engine, started.id);
    expect(done).toMatchObject({ status: 'completed', done: files.length, total: files.length });

    const unknown = await fetch(`http://127.0.0.1:${s.port}/api/export/0190a6e2-0000-7000-8000-000000000001.zip`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(unknown.status).toBe(404);
  });

  it('cancel ends a download in progress: the reader sees the stream cut, the export says cancelled', async () => {
    h = await startHarness();
    // One large original (noise does not compress): the download stalls on it while nobody reads.
    const noise = Buffer.alloc(900 * 900 * 3);
    for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 2654435761) >>> 24;
    const big = new Uint8Array(
      await sharp(noise, { raw: { width: 900, height: 900, channels: 3 } })
        .png()
        .toBuffer(),
    );
    const files = [{ name: 'big.png', bytes: big }, ...(await toolFiles('cut'))];
    temps.push(await linkedLibrary(h.engine, files));
    const s = await serve();
    const { export: started } = await api<{ export: { id: string } }>(s, 'export.start', {
      target: { query: { view: 'active' } },
      format: 'zip',
      manifest: 'none',
    });

    const outcome = new Promise<{ received: number; error: boolean }>((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: s.port,
          path: `/api/export/${started.id}.zip`,
          headers: { authorization: `Bearer ${TOKEN}` },
        },
        (res) => {
          let received = 0;
          res.once('data', (chunk: Buffer) => {
            received += chunk.length;
            // Stop reading: backpressure holds the export on its first file until the cancel.
            res.pause();
            void api(s, 'export.cancel', { id: started.id }).then(() => res.resume());
            res.on('data', (more: Buffer) => (received += more.length));
          });
          res.on('error', () => resolve({ received, error: true }));
          res.on('aborted', () => resolve({ received, error: true }));
          res.on('end', () => resolve({ received, error: false }));
        },
      );
      req.on('error', () => resolve({ received: 0, error: true }));
      req.end();
    });
    const { received, error } = await outcome;
    expect(error).toBe(true);
    expect(received).toBeLessThan(files.reduce((n, f) => n + f.bytes.length, 0));
    const done = await exportDone(h.engine, started.id);
    expect(done.status).toBe('cancelled');
    expect(done.done).toBeLessThan(files.length);
  });
});
