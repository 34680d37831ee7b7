import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../shared/errors.js';
import { STATUS_BY_CODE } from '../../../electron/serve/status.js';
import { ID, startHarness, type Harness } from './helpers.js';

const request = { provider: 'builtin', prompt: 'a lighthouse at dusk', width: 512, height: 512, count: 1 };

describe('headless host: /api/<channel>', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(() => h.close());

  it('answers 200 {ok:true, value} with the validated input passed to the engine', async () => {
    const reply = await h.api('jobs.submit', request);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.headers['cache-control']).toBe('no-store');
    const body = reply.json() as { ok: true; value: { created: boolean; job: { prompt: string } } };
    expect(body.ok).toBe(true);
    expect(body.value.created).toBe(true);
    expect(body.value.job.prompt).toBe(request.prompt);
    const list = await h.api('jobs.list', {});
    expect(list.json()).toMatchObject({ ok: true, value: { items: [{ prompt: request.prompt }] } });
    expect(h.engine.calls[1]).toEqual({ channel: 'jobs.list', input: { limit: 60, view: 'active' } });
  });

  it('treats an empty body as {}', async () => {
    const reply = await h.call({
      method: 'POST',
      path: '/api/settings.get',
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status).toBe(200);
  });

  it('validates every input with the contract: 400 invalid_request with field messages', async () => {
    const reply = await h.api('jobs.submit', { ...request, width: 10, prompt: '   ' });
    expect(reply.status).toBe(400);
    const body = reply.json() as { ok: false; error: { code: string; details: { fields: Record<string, string> } } };
    expect(body.error.code).toBe('invalid_request');
    expect(Object.keys(body.error.details.fields).sort()).toEqual(['prompt', 'width']);
    expect((await h.api('jobs.get', { id: ID, sneaky: true })).status).toBe(400);
    expect((await h.api('jobs.get', { id: '../etc' })).status).toBe(400);
    expect((await h.api('jobs.list', [])).status).toBe(400);
    expect(h.engine.calls).toHaveLength(0);
  });

  it('maps error codes to statuses', async () => {
    expect(await h.api('jobs.get', { id: ID })).toMatchObject({ status: 404 });
    expect(await h.api('jobs.retry', { id: ID })).toMatchObject({ status: 409 });
    expect(await h.api('jobs.stats', {})).toMatchObject({ status: 503 });
    expect(await h.api('providers.test', { id: 'a1111' })).toMatchObject({ status: 502 });
    const conflict = (await h.api('jobs.retry', { id: ID })).json();
    expect(conflict).toEqual({
      ok: false,
      error: {
        code: 'conflict',
        message: 'Only a finished job can be retried.',
        retryable: false,
        details: { id: ID },
      },
    });
    for (const code of ERROR_CODES) expect(STATUS_BY_CODE[code]).toBeGreaterThanOrEqual(400);
  });

  it.each([
    ['desktop.reveal', { imageId: ID }],
    ['desktop.copyImage', { imageId: ID }],
    ['desktop.saveAs', { imageId: ID }],
    ['desktop.startDrag', { imageIds: [ID] }],
    ['desktop.pickFolder', {}],
    ['desktop.droppedImages', { paths: ['/home/me/a.png'] }],
    ['updates.restart', {}],
  ] as const)('%s answers 501 desktop_only', async (channel, input) => {
    const reply = await h.api(channel, input);
    expect(reply.status).toBe(501);
    expect(reply.json()).toMatchObject({ ok: false, error: { code: 'desktop_only' } });
  });

  it('desktop.pickImportPaths answers 501 desktop_only: the browser types paths instead', async () => {
    const reply = await h.api('desktop.pickImportPaths', {});
    expect(reply.status).toBe(501);
    expect(reply.json()).toMatchObject({ ok: false, error: { code: 'desktop_only' } });
  });

  it('hides unexpected failures behind a generic internal error', async () => {
    const reply = await h.api('jobs.submit', { ...request, prompt: 'boom' });
    expect(reply.status).toBe(500);
    expect(reply.text).not.toContain('secret');
    expect(reply.json()).toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('refuses unknown channels, other methods, other content types and broken JSON', async () => {
    expect((await h.api('jobs.drop', {})).status).toBe(404);
    expect((await h.api('constructor', {})).status).toBe(404);
    expect((await h.api('__proto__', {})).status).toBe(404);
    expect((await h.call({ path: '/api/jobs.list' })).status).toBe(405);
    const form = await h.call({
      method: 'POST',
      path: '/api/jobs.list',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(form.status).toBe(415);
    const broken = await h.call({
      method: 'POST',
      path: '/api/jobs.list',
      headers: { 'content-type': 'application/json' },
      body: '{"limit":',
    });
    expect(broken.status).toBe(400);
    expect(broken.json()).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('bounds request bodies (413), declared or streamed', async () => {
    const big = JSON.stringify({ ...request, prompt: 'x'.repeat(2 * 1024 * 1024) });
    const declared = await h.call({
      method: 'POST',
      path: '/api/jobs.submit',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(declared.status).toBe(413);
    const streamed = await h.call({
      method: 'POST',
      path: '/api/jobs.submit',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: big,
    });
    expect(streamed.status).toBe(413);
    expect(h.engine.calls).toHaveLength(0);
    // A painted mask is an image: its channel takes up to 33 MB, and says so past it.
    const mask = (n: number) => JSON.stringify({ imageId: '0190a6e2-0000-7000-8000-000000000000', png: 'A'.repeat(n) });
    const roomy = await h.call({
      method: 'POST',
      path: '/api/images.saveMask',
      headers: { 'content-type': 'application/json' },
      body: mask(3 * 1024 * 1024),
    });
    expect(roomy.status).not.toBe(413);
    const tooBig = await h.call({
      method: 'POST',
      path: '/api/images.saveMask',
      headers: { 'content-type': 'application/json' },
      body: mask(34 * 1024 * 1024),
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.json()).toMatchObject({ ok: false, error: { message: 'A request body is at most 33 MB.' } });
  });
});
