/**
 * The headless host with the real engine under a burst: many submits at once while several pages hold an event
 * stream open. Every page must see every job through to its final state, in the order the jobs went through it.
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { isTerminal, type JobStatus } from '../../../shared/contract.js';
import { startServer, type RunningServer } from '../../../electron/serve/server.js';
import { createScriptedProvider, scriptedEntry } from '../../fakes/scripted-provider.js';
import { startHarness, waitFor, type Harness } from '../engine/harness.js';

const TOKEN = 'burst-token-0123456789abcdefghijkl';

interface Stream {
  req: ClientRequest;
  /** Every jobs.changed frame as [id, status], in arrival order. */
  changes: Array<[string, string]>;
}

function openStream(server: RunningServer): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const stream: Stream = { req: undefined as unknown as ClientRequest, changes: [] };
    let buffer = '';
    stream.req = httpRequest(
      { host: '127.0.0.1', port: server.port, path: '/api/events', headers: { authorization: `Bearer ${TOKEN}` } },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (!frame.startsWith('event: jobs.changed\n')) continue;
            const { job } = JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as {
              job: { id: string; status: string };
            };
            stream.changes.push([job.id, job.status]);
          }
        });
        res.on('error', () => undefined);
        resolve(stream);
      },
    );
    stream.req.on('error', (error) => {
      if (!stream.req.destroyed) reject(error);
    });
    stream.req.end();
  });
}

const ORDER = ['queued', 'running', 'succeeded'];

describe('a burst on the headless host', () => {
  let h: Harness | undefined;
  let server: RunningServer | undefined;
  const streams: Stream[] = [];
  afterEach(async () => {
    for (const s of streams.splice(0)) s.req.destroy();
    await server?.close();
    await h?.cleanup();
  });

  it('shows every page every job of 60 concurrent submits through to its final state, in order', async () => {
    const provider = createScriptedProvider('scripted', [{ kind: 'succeed', delayMs: 0, progressSteps: 1 }]);
    h = await startHarness({ providers: [scriptedEntry(provider, 4)] });
    await h.engine.handlers['settings.update']({ concurrency: { global: 4 } });
    server = await startServer({ engine: h.engine, rendererDir: h.dataDir, token: TOKEN });
    for (let i = 0; i < 8; i += 1) streams.push(await openStream(server));

    const n = 60;
    const answers = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const res = await fetch(`http://127.0.0.1:${server!.port}/api/jobs.submit`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ provider: 'scripted', prompt: `burst ${i}`, width: 64, height: 64, count: 1 }),
        });
        return (await res.json()) as { ok: boolean; value: { job: { id: string } } };
      }),
    );
    expect(answers.every((a) => a.ok)).toBe(true);
    const ids = answers.map((a) => a.value.job.id);

    const ended = (s: Stream) =>
      new Set(s.changes.filter(([, status]) => isTerminal(status as JobStatus)).map(([id]) => id));
    await waitFor(() => streams.every((s) => ids.every((id) => ended(s).has(id))), 15_000);

    for (const s of streams) {
      // The same frames, in the same order, on every page.
      expect(s.changes).toEqual(streams[0]!.changes);
      for (const id of ids) {
        const statuses = s.changes.filter(([jobId]) => jobId === id).map(([, status]) => status);
        expect(statuses[0]).toBe('queued');
        expect(statuses.at(-1)).toBe('succeeded');
        // Never back to an earlier state.
        const ranks = statuses.map((status) => ORDER.indexOf(status));
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      }
    }
  });
});
