/**
 * `electron/serve.ts` as users run it (a child process through tsx) on the real engine: one URL line, a job on the
 * builtin provider streamed over SSE, its image served from /media, then SIGTERM closes everything cleanly.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobDetail } from '../../../shared/contract.js';
import { startServeProcess, type ServeProcess } from '../../fixtures/serve-process.js';

describe('npm run serve on the real engine', () => {
  let dir: string;
  let served: ServeProcess | undefined;
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
    served = await startServeProcess(join(dir, 'data'), rendererDir);
    const { origin: base, token } = served;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const call = async (channel: string, body: unknown) => {
      const response = await fetch(`${base}/api/${channel}`, { method: 'POST', headers, body: JSON.stringify(body) });
      // Shapes are checked by the assertions that follow; the contract types keep the reads honest.
      return {
        status: response.status,
        body: (await response.json()) as { ok: boolean; value?: Record<string, unknown> },
      };
    };

    const providers = await call('providers.list', {});
    expect(providers.status).toBe(200);
    expect((providers.body.value?.providers as { id: string }[]).map((p) => p.id)).toContain('builtin');

    const events = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${token}` } });
    expect(events.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = events.body!.getReader();
    let stream = '';
    const decoder = new TextDecoder();

    const submitted = await call('jobs.submit', {
      provider: 'builtin',
      prompt: 'a lighthouse in fog',
      width: 64,
      height: 64,
      count: 1,
    });
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

    expect(await served.stop()).toBe(0);
    // Exactly one line on stdout: the URL.
    expect(served.stdout().trim().split('\n')).toHaveLength(1);
  });
});
