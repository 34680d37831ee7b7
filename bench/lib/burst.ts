/**
 * The burst row of `npm run bench -- worker`: a real headless host process (electron/serve.ts through tsx) with
 * 20 event-stream clients, 200 concurrent jobs.submit (builtin, 256²) and jobs.stats polled every 100 ms, while a
 * probe inside the host samples its main-loop delay.
 */
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { openStore } from '../../electron/db/store.js';
import { startServeProcess, type ServeProcess } from '../../test/fixtures/serve-process.js';
import { percentile } from './engine-kit.js';

/** Main-loop delay inside the host, in ms (test/fixtures/loop-probe.mjs). */
export interface LoopReport {
  p50: number;
  p99: number;
  max: number;
  samples: number;
  /** When the probe answered (monotonic µs, as in a --cpu-prof profile). */
  atUs: number;
  /** CPU time the host's main thread has run so far (ms; NaN off Linux). */
  mainCpuMs: number;
}

export interface BurstOptions {
  submits: number;
  clients: number;
  size: number;
  /** Extra node flags for the host (e.g. --cpu-prof). */
  hostNodeArgs?: string[];
}

export interface BurstResult {
  submits: number;
  clients: number;
  submitP50: number;
  submitP95: number;
  submitMax: number;
  statsCalls: number;
  statsP95: number;
  statsMax: number;
  /** Loop delay inside the host while the submits were answered, and over the whole burst until the last job ended. */
  submitWindow: LoopReport;
  whole: LoopReport;
  reset: LoopReport;
  /** The driver's own loop delay p99 / max (ms) while the submits were answered. */
  driverP99: number;
  driverMax: number;
  seconds: number;
  succeeded: number;
  /** Clients that saw every job's final state, each job's last jobs.changed being terminal. */
  clientsComplete: number;
  eventsPerClient: number;
}

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);

interface SseClient {
  /** Last status seen per job id. */
  last: Map<string, string>;
  events: number;
  terminal: number;
  close(): void;
}

function connectSse(host: ServeProcess, onTerminal: () => void): Promise<SseClient> {
  return new Promise((resolveClient, reject) => {
    const client: SseClient = { last: new Map(), events: 0, terminal: 0, close: () => undefined };
    const req = httpRequest(`${host.origin}/api/events`, {
      headers: { authorization: `Bearer ${host.token}` },
      agent: false,
    });
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (frame.startsWith(': connected')) resolveClient(client);
          const name = /^event: (.+)$/m.exec(frame)?.[1];
          const data = /^data: (.+)$/m.exec(frame)?.[1];
          if (name === undefined || data === undefined) continue;
          client.events += 1;
          if (name !== 'jobs.changed') continue;
          // The job's own id and status open its JSON: read them without parsing 20 clients' worth of frames.
          const head = /^\{"job":\{"id":"([^"]+)","status":"([a-z]+)"/.exec(data);
          if (head === null) throw new Error(`unexpected jobs.changed frame: ${data.slice(0, 120)}`);
          const [, id, status] = head as unknown as [string, string, string];
          const before = client.last.get(id);
          client.last.set(id, status);
          if (TERMINAL.has(status) && (before === undefined || !TERMINAL.has(before))) {
            client.terminal += 1;
            onTerminal();
          }
        }
      });
    });
    req.end();
    client.close = () => req.destroy();
  });
}

function probe(host: ServeProcess, type: 'loop.reset' | 'loop.report'): Promise<LoopReport> {
  return new Promise((resolveReport) => {
    const onMessage = (message: { type?: string; report?: LoopReport }): void => {
      if (message.type !== type) return;
      host.child.off('message', onMessage);
      resolveReport(message.report!);
    };
    host.child.on('message', onMessage);
    host.child.send({ type });
  });
}

// node:http over keep-alive sockets: far lighter per call than fetch, so the driver's own work does not pose as host latency.
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

function call(host: ServeProcess, channel: string, body: unknown): Promise<{ ms: number; ok: boolean }> {
  const payload = JSON.stringify(body);
  const t0 = performance.now();
  return new Promise((resolveCall, reject) => {
    const req = httpRequest(
      `${host.origin}/api/${channel}`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${host.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolveCall({ ms: performance.now() - t0, ok: text.startsWith('{"ok":true') }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export async function runBurst(options: BurstOptions): Promise<BurstResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'atelier-bench-burst-'));
  const host = await startServeProcess(dataDir, join(dataDir, 'no-renderer'), {
    ipc: true,
    nodeArgs: [
      '--import',
      resolve(import.meta.dirname, '..', '..', 'test', 'fixtures', 'loop-probe.mjs'),
      ...(options.hostNodeArgs ?? []),
    ],
  });
  const clients: SseClient[] = [];
  try {
    let allTerminal!: () => void;
    const done = new Promise<void>((r) => (allTerminal = r));
    const check = (): void => {
      if (clients.length === options.clients && clients.every((c) => c.terminal >= options.submits)) allTerminal();
    };
    for (let i = 0; i < options.clients; i += 1) clients.push(await connectSse(host, check));
    // One call first so the comparison is the burst, not the first request's lazy start-up.
    await call(host, 'jobs.stats', {});
    const reset = await probe(host, 'loop.reset');

    // The driver's own loop: a busy driver would delay the answers it times and blame the host.
    const driverLoop = monitorEventLoopDelay({ resolution: 1 });
    driverLoop.enable();
    const stats: number[] = [];
    const inFlight: Array<Promise<void>> = [];
    const poller = setInterval(() => {
      inFlight.push(call(host, 'jobs.stats', {}).then((r) => void stats.push(r.ms)));
    }, 100);
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: options.submits }, (_, i) =>
        call(host, 'jobs.submit', {
          provider: 'builtin',
          prompt: `burst ${i}: a paper boat on a green canal`,
          width: options.size,
          height: options.size,
          count: 1,
          seed: i,
        }),
      ),
    );
    const submitWindow = await probe(host, 'loop.report');
    driverLoop.disable();
    await done;
    const seconds = (performance.now() - started) / 1000;
    const whole = await probe(host, 'loop.report');
    clearInterval(poller);
    await Promise.all(inFlight);
    const latencies = results.map((r) => r.ms);
    const succeeded = [...(clients[0]?.last.values() ?? [])].filter((s) => s === 'succeeded').length;
    const ids = [...(clients[0]?.last.keys() ?? [])];
    const clientsComplete = clients.filter((c) => ids.every((id) => TERMINAL.has(c.last.get(id) ?? ''))).length;
    if (results.some((r) => !r.ok)) console.warn(`burst: ${results.filter((r) => !r.ok).length} submits were refused`);
    return {
      submits: options.submits,
      clients: options.clients,
      submitP50: percentile(latencies, 50),
      submitP95: percentile(latencies, 95),
      submitMax: Math.max(...latencies),
      statsCalls: stats.length,
      statsP95: percentile(stats, 95),
      statsMax: Math.max(...stats),
      submitWindow,
      whole,
      reset,
      driverP99: Math.max(0, driverLoop.percentile(99) / 1e6 - 1),
      driverMax: Math.max(0, driverLoop.max / 1e6 - 1),
      seconds,
      succeeded,
      clientsComplete,
      eventsPerClient: clients[0]?.events ?? 0,
    };
  } finally {
    for (const c of clients) c.close();
    await host.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** submit() alone, in this process with nothing else running: the store's own ceiling for the same request. */
export async function storeAloneSubmitsPerSecond(n: number, size: number): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'atelier-bench-store-alone-'));
  try {
    const store = openStore({ dataDir: dir, limits: { maxPendingJobs: 1_000_000 } });
    try {
      const t0 = performance.now();
      for (let i = 0; i < n; i += 1) {
        store.submit({
          provider: 'builtin',
          prompt: `burst ${i}: a paper boat on a green canal`,
          width: size,
          height: size,
          count: 1,
          seed: i,
        });
      }
      return n / ((performance.now() - t0) / 1000);
    } finally {
      store.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
