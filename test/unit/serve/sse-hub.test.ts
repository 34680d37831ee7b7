import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { JobStatus, JobSummary } from '../../../shared/contract.js';
import { createEventBus } from '../../../electron/base/events.js';
import { createSseHub } from '../../../electron/serve/sse.js';

/** The part of a ServerResponse the hub uses, recording every write. */
function fakeClient(): { res: ServerResponse; writes: string[]; text: () => string } {
  const writes: string[] = [];
  const res = {
    writableLength: 0,
    writableEnded: false,
    writeHead: () => res,
    write: (chunk: string) => {
      writes.push(chunk);
      return true;
    },
    end: () => {
      res.writableEnded = true;
    },
    on: () => res,
  };
  return { res: res as unknown as ServerResponse, writes, text: () => writes.join('') };
}

const job = (id: string, status: JobStatus): JobSummary => ({
  id,
  status,
  createdAt: 1,
  updatedAt: 1,
  provider: 'builtin',
  prompt: `job ${id}`,
  width: 64,
  height: 64,
  count: 1,
  favorite: false,
  trashedAt: null,
  images: [],
  source: 'atelier',
});

/** The `event:`/`data:` frames a client received, in order. */
const frames = (text: string): string[] =>
  text
    .split('\n\n')
    .filter((f) => f.startsWith('event: '))
    .map((f) => f.replace(/\n/g, ' '));

const settle = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe('event stream hub', () => {
  it('sends a burst of events to every client in one write each, every frame in order, each job ending in its final state', async () => {
    const bus = createEventBus();
    const hub = createSseHub(bus, 60_000);
    const clients = Array.from({ length: 20 }, fakeClient);
    for (const c of clients) hub.attach(c.res);
    const before = clients.map((c) => c.writes.length);

    // 200 jobs queued, then running, then finished, one removed: what a burst emits in one turn of the loop.
    const expected: string[] = [];
    const emit = <E extends 'jobs.changed' | 'jobs.removed'>(
      name: E,
      payload: E extends 'jobs.changed' ? { job: JobSummary } : { ids: string[] },
    ) => {
      bus.emit(name, payload as never);
      expected.push(`event: ${name} data: ${JSON.stringify(payload)}`);
    };
    const ids = Array.from({ length: 200 }, (_, i) => `job-${String(i).padStart(3, '0')}`);
    for (const id of ids) emit('jobs.changed', { job: job(id, 'queued') });
    for (const id of ids) emit('jobs.changed', { job: job(id, 'running') });
    for (const [i, id] of ids.entries()) emit('jobs.changed', { job: job(id, i % 2 === 0 ? 'succeeded' : 'failed') });
    emit('jobs.removed', { ids: [ids[0]!] });

    await settle(() => clients.every((c) => frames(c.text()).length === expected.length));
    for (const [i, c] of clients.entries()) {
      expect(c.writes.length - before[i]!).toBe(1);
      expect(frames(c.text())).toEqual(expected);
      const last = new Map<string, string>();
      for (const f of frames(c.text())) {
        const m = /"id":"(job-\d+)","status":"(\w+)"/.exec(f);
        if (m !== null) last.set(m[1]!, m[2]!);
      }
      expect([...last.values()]).toEqual(ids.map((_, k) => (k % 2 === 0 ? 'succeeded' : 'failed')));
    }
    hub.close();
  });

  it('gives a client that connects mid-burst only what happened after it connected', async () => {
    const bus = createEventBus();
    const hub = createSseHub(bus, 60_000);
    const early = fakeClient();
    hub.attach(early.res);
    bus.emit('jobs.changed', { job: job('before', 'queued') });
    const late = fakeClient();
    hub.attach(late.res);
    bus.emit('jobs.changed', { job: job('after', 'queued') });

    await settle(() => frames(early.text()).length === 2 && frames(late.text()).length === 1);
    expect(frames(early.text()).map((f) => /"id":"(\w+)"/.exec(f)?.[1])).toEqual(['before', 'after']);
    expect(frames(late.text()).map((f) => /"id":"(\w+)"/.exec(f)?.[1])).toEqual(['after']);
    hub.close();
  });

  it('still delivers events that come one at a time, and the last one before close', async () => {
    const bus = createEventBus();
    const hub = createSseHub(bus, 60_000);
    const c = fakeClient();
    hub.attach(c.res);
    for (let i = 0; i < 3; i += 1) {
      bus.emit('jobs.changed', { job: job(`one${i}`, 'queued') });
      await settle(() => frames(c.text()).length === i + 1);
    }
    bus.emit('jobs.changed', { job: job('last', 'succeeded') });
    hub.close();
    expect(frames(c.text()).at(-1)).toContain('"id":"last"');
  });
});
