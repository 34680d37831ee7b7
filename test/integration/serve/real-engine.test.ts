/**
 * `electron/serve.ts` as users run it (a child process through tsx) on the real engine: one URL line, a job on the
 * builtin provider streamed over SSE, its image served from /media, then SIGTERM closes everything cleanly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobDetail } from '../../../shared/contract.js';

const root = resolve(import.meta.dirname, '..', '..', '..');

interface Served {
  child: ChildProcess;
  base: string;
  token: string;
  stdout: () => string;
}

async function serve(dataDir: string, rendererDir: string): Promise<Served> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'electron', 'serve.ts'), '--data-dir', dataDir, '--renderer-dir', rendererDir],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const line = await new Promise<string>((resolveLine, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolveLine(out.split('\n')[0] ?? '');
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
  const match = /^Atelier is serving at (http:\/\/127\.0\.0\.1:\d+)\/\?token=([A-Za-z0-9_-]+)$/.exec(line);
  if (match === null) throw new Error(`unexpected first line: ${line}`);
  return { child, base: match[1] as string, token: match[2] as string, stdout: () => out };
}

describe('npm run serve on the real engine', () => {
  let dir: string;
  let served: Served | undefined;
  afterEach(async () => {
    if (served !== undefined && served.child.exitCode === null) served.child.kill('SIGKILL');
    served = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('generates with the builtin provider, streams events, serves the image and shuts down on SIGTERM', async () => {
    dir = await mkdtemp(join(tmpdir(), 'atelier-serve-real-'));
    const rendererDir = join(dir, 'renderer');
    await mkdir(rendererDir);
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Atelier</title>');
    served = await serve(join(dir, 'data'), rendererDir);
    const { base, token } = served;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const call = async (channel: string, body: unknown) => {
      const response = await fetch(`${base}/api/${channel}`, { method: 'POST', headers, body: JSON.stringify(body) });
      // Shapes are checked by the assertions that follow; the contract types keep the reads honest.
      return { status: response.status, body: (await response.json()) as { ok: boolean; value?: Record<string, unknown> } };
    };

    const providers = await call('providers.list', {});
    expect(providers.status).toBe(200);
    expect((providers.body.value?.providers as { id: string }[]).map((p) => p.id)).toContain('builtin');

    const events = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${token}` } });
    expect(events.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = events.body!.getReader();
    let stream = '';
    const decoder = new TextDecoder();

    const submitted = await call('jobs.submit', { provider: 'builtin', prompt: 'a lighthouse in fog', width: 64, height: 64, count: 1 });
    expect(submitted.status).toBe(200);
    const id = (submitted.body.value?.job as JobDetail).id;

    const deadline = Date.now() + 15_000;
    let job: JobDetail | undefined;
    while (Date.now() < deadline) {
      job = (await call('jobs.get', { id })).body.value as JobDetail | undefined;
      if (job?.status === 'succeeded' || job?.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(job?.status).toBe('succeeded');
    while (!stream.includes(`"status":"succeeded"`)) {
      const { value, done } = await reader.read();
      if (done) break;
      stream += decoder.decode(value);
    }
    expect(stream).toContain('event: jobs.changed');
    await reader.cancel();

    const imageId = job?.images[0]?.id ?? '';
    const image = await fetch(`${base}/media/image/${imageId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);
    expect(image.headers.get('cache-control')).toContain('immutable');
    expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(100);
    expect((await call('desktop.reveal', { imageId })).status).toBe(501);

    const exited = new Promise<number | null>((r) => served!.child.once('exit', (code) => r(code)));
    served.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // Exactly one line on stdout: the URL.
    expect(served.stdout().trim().split('\n')).toHaveLength(1);
  });
});
