import { EVENT_NAMES } from '../../../shared/contract.js';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ID, startHarness, TOKEN, type Harness } from './helpers.js';

interface Stream {
  req: ClientRequest;
  status: number;
  contentType: string | undefined;
  received: () => string;
  waitFor(text: string): Promise<void>;
}

function openStream(h: Harness): Promise<Stream> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const waiters: { text: string; done: () => void }[] = [];
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: h.server.port,
        path: '/api/events',
        headers: { host: `127.0.0.1:${h.server.port}`, authorization: `Bearer ${TOKEN}`, accept: 'text/event-stream' },
      },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (const waiter of [...waiters]) {
            if (buffer.includes(waiter.text)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.done();
            }
          }
        });
        res.on('error', () => undefined);
        resolve({
          req,
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'],
          received: () => buffer,
          waitFor: (text) =>
            new Promise<void>((done) => {
              if (buffer.includes(text)) done();
              else waiters.push({ text, done });
            }),
        });
      },
    );
    req.on('error', (error) => {
      if (!req.destroyed) reject(error);
    });
    req.end();
  });
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

describe('headless host: /api/events', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('streams engine events as named SSE frames with JSON data', async () => {
    h = await startHarness();
    const stream = await openStream(h);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toBe('text/event-stream; charset=utf-8');
    await stream.waitFor(': connected\n\n');
    h.engine.emit('jobs.progress', { id: ID, stage: 'sampling', fraction: 0.25, partialImages: 0 });
    h.engine.emit('jobs.removed', { ids: [ID] });
    await stream.waitFor('event: jobs.removed');
    expect(stream.received()).toContain(
      `event: jobs.progress\ndata: ${JSON.stringify({ id: ID, stage: 'sampling', fraction: 0.25, partialImages: 0 })}\n\n`,
    );
    expect(stream.received()).toContain(`event: jobs.removed\ndata: {"ids":["${ID}"]}\n\n`);
    stream.req.destroy();
  });

  it('delivers a submitted job to every listener', async () => {
    h = await startHarness();
    const [a, b] = await Promise.all([openStream(h), openStream(h)]);
    await Promise.all([a.waitFor(': connected'), b.waitFor(': connected')]);
    await h.api('jobs.submit', { provider: 'builtin', prompt: 'fox', width: 512, height: 512, count: 1 });
    await Promise.all([a.waitFor('event: jobs.changed'), b.waitFor('event: jobs.changed')]);
    expect(a.received()).toMatch(/event: jobs.changed\ndata: \{"job":\{.*"prompt":"fox"/);
    a.req.destroy();
    b.req.destroy();
  });

  it('sends keepalive comments and forgets a client that disconnects', async () => {
    h = await startHarness({ keepaliveMs: 30 });
    const stream = await openStream(h);
    await stream.waitFor(': keepalive\n\n');
    expect(h.server.sse.size).toBe(1);
    stream.req.destroy();
    await until(() => h.server.sse.size === 0);
  });

  it('ends open streams and unsubscribes from the engine when the server closes', async () => {
    h = await startHarness();
    const before = h.engine.listenerCount();
    // The harness itself records every event the engine has.
    expect(before).toBe(EVENT_NAMES.length);
    const stream = await openStream(h);
    await stream.waitFor(': connected');
    const ended = new Promise<void>((resolve) => stream.req.on('close', () => resolve()));
    await h.server.close();
    await ended;
    expect(h.engine.listenerCount()).toBe(0);
  });
});
