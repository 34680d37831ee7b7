/**
 * `npm run bench -- engines [--jobs 200] [--latency 30]`: every engine behind one queue.
 * 1. Throughput: jobs spread over four hosted loopback fakes (BFL, fal, Replicate, Stability) that answer each request
 *    `--latency` ms late and fail some jobs; each provider's jobs/s against its limit over its solo latency, and the
 *    slot-time left idle while its jobs waited (target: throughput >= 90% of the limits' sum, no idle slot).
 * 2. Resume: 50 jobs accepted by BFL when the engine is killed (SIGKILL); the time from the restart until all 50 are
 *    collected, and re-submits (target < 5 s, 0).
 * 3. Reorder: moves in a queue of 1,000 (target: reordering all 1,000 < 50 ms).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { GenerateRequest, JobSummary } from '../shared/contract.js';
import { createEngine } from '../electron/engine/create-engine.js';
import { createFileKeyring } from '../electron/engine/file-keyring.js';
import type { ProviderEntry } from '../electron/engine/provider-registry.js';
import type { Engine } from '../electron/engine/types.js';
import { openStore } from '../electron/db/store.js';
import { createBflProvider } from '../electron/providers/bfl/index.js';
import { createFalProvider } from '../electron/providers/fal/index.js';
import { createReplicateProvider } from '../electron/providers/replicate/index.js';
import { createStabilityProvider } from '../electron/providers/stability/index.js';
import { startFakeBfl } from '../test/fakes/bfl.js';
import { startFakeFal } from '../test/fakes/fal.js';
import { startFakeReplicate } from '../test/fakes/replicate.js';
import { startFakeStability } from '../test/fakes/stability.js';
import type { HttpFake } from '../test/fakes/server.js';
import { memoryKeyring, percentile } from './lib/engine-kit.js';
import { printTable } from './lib/text-table.js';

const KEY = 'bench-key-0123456789abcdef';
const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);
const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '–');
const mark = (ok: boolean): string => (ok ? 'met' : 'MISSED');

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  const value = i < 0 ? NaN : Number(args[i + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

interface Lane {
  id: string;
  fake: HttpFake & { setScenario(s: unknown): void };
  entry: ProviderEntry;
  request: GenerateRequest;
  limit: number;
  /** Every Nth job fails at the provider (a failure answer after acceptance). */
  failure: unknown;
  success: unknown;
}

const FAST = { firstMs: 10, maxMs: 10 };

async function lanes(limit: number): Promise<Lane[]> {
  const base = { prompt: 'a lighthouse at dusk', width: 1024, height: 1024, count: 1 };
  const entry = (provider: ProviderEntry['provider']): ProviderEntry => ({
    provider,
    defaults: { enabled: true, timeoutMs: 120_000, concurrency: limit },
  });
  const bfl = await startFakeBfl({ apiKey: KEY });
  const fal = await startFakeFal({ apiKey: KEY });
  const replicate = await startFakeReplicate({ apiKey: KEY });
  const stability = await startFakeStability({ apiKey: KEY });
  return [
    {
      id: 'bfl',
      fake: bfl as Lane['fake'],
      entry: entry(createBflProvider(FAST)),
      request: { ...base, provider: 'bfl', model: 'flux-2-pro' },
      limit,
      success: { kind: 'success', pendingPolls: 2 },
      failure: { kind: 'terminal', status: 'Error', error: 'GPU fell over' },
    },
    {
      id: 'fal',
      fake: fal as Lane['fake'],
      entry: entry(createFalProvider(FAST)),
      request: { ...base, provider: 'fal' },
      limit,
      success: { kind: 'success', queued: 1, running: 1 },
      failure: { kind: 'completed_error', error: 'runner crashed' },
    },
    {
      id: 'replicate',
      fake: replicate as Lane['fake'],
      entry: entry(createReplicateProvider({ ...FAST, syncWaitSeconds: 1 })),
      request: { ...base, provider: 'replicate' },
      limit,
      success: { kind: 'success', processingPolls: 2 },
      failure: { kind: 'failed', error: 'CUDA out of memory' },
    },
    {
      id: 'stability',
      fake: stability as Lane['fake'],
      entry: entry(createStabilityProvider(FAST)),
      request: { ...base, provider: 'stability', model: 'core' },
      limit,
      success: { kind: 'success' },
      // A sync API fails before anything is billed: a moderation block (a 5xx would be retried in its slot).
      failure: { kind: 'content_filtered' },
    },
  ];
}

async function openBenchEngine(dataDir: string, all: Lane[], global: number): Promise<Engine> {
  const engine = await createEngine(
    { dataDir, keyring: memoryKeyring() },
    { providers: all.map((l) => l.entry), orphanGraceMs: 0, maintenanceIntervalMs: 0, housekeepingDelayMs: 0 },
  );
  await engine.handlers['settings.update']({
    concurrency: { global },
    providers: Object.fromEntries(all.map((l) => [l.id, { apiKey: KEY, baseUrl: l.fake.url, concurrency: l.limit }])),
  });
  return engine;
}

/** Resolves once every id has reached a terminal state, with each job's summary then. */
function allDone(engine: Engine, ids: Set<string>): Promise<Map<string, JobSummary>> {
  const done = new Map<string, JobSummary>();
  return new Promise((resolve) => {
    const off = engine.events.on('jobs.changed', ({ job }) => {
      if (!ids.has(job.id) || !TERMINAL.has(job.status)) return;
      done.set(job.id, job);
      if (done.size === ids.size) {
        off();
        resolve(done);
      }
    });
  });
}

async function soloLatency(engine: Engine, lane: Lane, runs: number): Promise<number> {
  lane.fake.setScenario(lane.success);
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    const { job } = await engine.handlers['jobs.submit']({ ...lane.request, prompt: `solo ${i}` });
    await allDone(engine, new Set([job.id]));
    times.push(performance.now() - start);
  }
  return percentile(times, 50);
}

async function throughput(jobs: number, latencyMs: number): Promise<void> {
  const limit = 4;
  const all = await lanes(limit);
  for (const lane of all) lane.fake.setLatency(latencyMs);
  const dataDir = await mkdtemp(join(tmpdir(), 'atelier-bench-engines-'));
  const engine = await openBenchEngine(dataDir, all, limit * all.length);
  try {
    const solo = new Map<string, number>();
    for (const lane of all) solo.set(lane.id, await soloLatency(engine, lane, 5));
    // One job in ten fails at the provider, after it was accepted.
    const perLane = Math.ceil(jobs / all.length);
    for (const lane of all) {
      lane.fake.setScenario(
        Array.from({ length: perLane + 1 }, (_, i) => (i % 10 === 9 ? lane.failure : lane.success)),
      );
    }
    const laneOf = new Map<string, string>();
    // By prompt: a job may start (and say so) before its submit has answered.
    const laneOfPrompt = new Map<string, string>();
    const state = new Map<string, string>();
    const count = (lane: string, status: string): number => {
      let n = 0;
      for (const [id, s] of state) if (s === status && laneOf.get(id) === lane) n += 1;
      return n;
    };
    // Slot-time left idle while jobs of that provider waited, integrated over every change of state.
    const idle = new Map(all.map((l) => [l.id, 0]));
    const ended = new Map<string, number>();
    let last = performance.now();
    let measuring = false;
    const integrate = (): void => {
      const now = performance.now();
      // While paused (jobs being queued) no slot is expected to work.
      for (const lane of measuring ? all : []) {
        const free = Math.max(0, Math.min(lane.limit - count(lane.id, 'running'), count(lane.id, 'queued')));
        idle.set(lane.id, idle.get(lane.id)! + free * (now - last));
      }
      last = now;
    };
    const off = engine.events.on('jobs.changed', ({ job }) => {
      const lane = laneOfPrompt.get(job.prompt);
      if (lane === undefined) return;
      laneOf.set(job.id, lane);
      integrate();
      state.set(job.id, job.status);
      if (TERMINAL.has(job.status)) ended.set(laneOf.get(job.id)!, performance.now());
    });
    // Everything is queued first (paused), so the submits' own pace does not bound a fast provider's throughput.
    await engine.handlers['queue.pause']({});
    const ids = new Set<string>();
    const requests = all.flatMap((lane) =>
      Array.from({ length: perLane }, (_, i) => ({ lane, request: { ...lane.request, prompt: `${lane.id} ${i}` } })),
    );
    // Interleaved, as a person's mixed queue would be.
    requests.sort((a, b) => a.request.prompt.localeCompare(b.request.prompt.split(' ').reverse().join(' ')));
    const done = new Promise<Map<string, JobSummary>>((resolve) => {
      const check = engine.events.on('jobs.changed', () => {
        if (ids.size === requests.length && [...ids].every((id) => TERMINAL.has(state.get(id) ?? ''))) {
          check();
          resolve(new Map());
        }
      });
    });
    for (const { lane, request } of requests) laneOfPrompt.set(request.prompt, lane.id);
    for (const { lane, request } of requests) {
      const { job } = await engine.handlers['jobs.submit'](request);
      laneOf.set(job.id, lane.id);
      if (!state.has(job.id)) state.set(job.id, job.status);
      ids.add(job.id);
    }
    const start = performance.now();
    last = start;
    measuring = true;
    await engine.handlers['queue.resume']({});
    await done;
    integrate();
    off();
    const rows: string[][] = [];
    let ideal = 0;
    let actual = 0;
    let idleTotal = 0;
    let slotTotal = 0;
    for (const lane of all) {
      const d = solo.get(lane.id)!;
      const seconds = (ended.get(lane.id)! - start) / 1000;
      const laneIdeal = lane.limit / (d / 1000);
      const laneActual = perLane / seconds;
      const failed = [...state].filter(([id, s]) => laneOf.get(id) === lane.id && s === 'failed').length;
      ideal += laneIdeal;
      actual += laneActual;
      idleTotal += idle.get(lane.id)!;
      slotTotal += lane.limit * seconds * 1000;
      rows.push([
        lane.id,
        String(perLane),
        String(failed),
        String(lane.limit),
        fmt(d, 0),
        fmt(laneIdeal),
        fmt(laneActual),
        `${fmt((100 * laneActual) / laneIdeal, 0)}%`,
        `${fmt((100 * idle.get(lane.id)!) / (lane.limit * seconds * 1000), 2)}%`,
      ]);
    }
    rows.push([
      'all',
      String(perLane * all.length),
      '',
      String(limit * all.length),
      '',
      fmt(ideal),
      fmt(actual),
      `${fmt((100 * actual) / ideal, 0)}% ${mark(actual >= 0.9 * ideal)}`,
      `${fmt((100 * idleTotal) / slotTotal, 2)}%`,
    ]);
    printTable(
      `Throughput: ${perLane * all.length} jobs over four hosted fakes, ${latencyMs} ms per answer, 1 in 10 failing (target: jobs/s >= 90% of the limits' sum; slots idle while jobs wait ~0)`,
      [
        'provider',
        'jobs',
        'failed',
        'limit',
        'solo ms',
        'limit/solo jobs/s',
        'jobs/s',
        'of limit',
        'slot idle while waiting',
      ],
      rows,
    );
  } finally {
    await engine.close({ graceMs: 0 });
    for (const lane of all) await lane.fake.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function resume(count: number): Promise<void> {
  const child = fileURLToPath(new URL('../test/integration/engine/paid-work-child.ts', import.meta.url));
  const dataDir = await mkdtemp(join(tmpdir(), 'atelier-bench-resume-'));
  const fake = await startFakeBfl({ apiKey: KEY });
  fake.setScenario({ kind: 'pending_forever' });
  let engine: Engine | undefined;
  try {
    const proc = spawn(process.execPath, ['--import', 'tsx', child], {
      env: { ...process.env, DATA_DIR: dataDir, BFL_URL: fake.url, BFL_KEY: KEY, COUNT: String(count) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    while (!out.includes('\n') || new Set(fake.polls().map((p) => p.query['id'])).size < count) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const { ids } = JSON.parse(out.split('\n')[0]!) as { ids: string[] };
    proc.kill('SIGKILL');
    await exited;
    const submitted = fake.submits().length;
    for (const task of fake.tasks()) fake.setTaskScenario(task, { kind: 'success', pendingPolls: 0 });
    const start = performance.now();
    engine = await createEngine(
      { dataDir, keyring: await createFileKeyring(dataDir) },
      { orphanGraceMs: 0, maintenanceIntervalMs: 0 },
    );
    const opened = performance.now();
    const done = await Promise.race([
      allDone(engine, new Set(ids)),
      // Some jobs may have ended before the listener: the race re-checks through jobs.get below.
      new Promise<null>((r) => setTimeout(() => r(null), 30_000)),
    ]);
    const summaries = done ?? new Map();
    for (const id of ids) if (!summaries.has(id)) summaries.set(id, await engine.handlers['jobs.get']({ id }));
    const seconds = (performance.now() - start) / 1000;
    const succeeded = [...summaries.values()].filter((j) => j.status === 'succeeded').length;
    const resubmits = fake.submits().length - submitted;
    printTable(
      `Resume after SIGKILL: ${count} jobs accepted by BFL (targets: all collected < 5 s, 0 re-submits)`,
      ['jobs', 'open ms', 'collected', 'restart → all collected s', 're-submits', 'targets'],
      [
        [
          String(count),
          fmt(opened - start, 0),
          String(succeeded),
          fmt(seconds, 2),
          String(resubmits),
          `${mark(seconds < 5 && succeeded === count)} / ${mark(resubmits === 0)}`,
        ],
      ],
    );
  } finally {
    await engine?.close({ graceMs: 0 });
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function reorder(queued: number): void {
  const dir = join(tmpdir(), `atelier-bench-reorder-${process.pid}`);
  const store = openStore({ dataDir: dir, limits: { maxPendingJobs: queued + 10 } });
  try {
    const ids = Array.from(
      { length: queued },
      (_, i) => store.submit({ provider: 'builtin', prompt: `job ${i}`, width: 64, height: 64, count: 1 }).job.id,
    );
    const time = (fn: () => void): number => {
      const start = performance.now();
      fn();
      return performance.now() - start;
    };
    const singles: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const order = store.queued(queued).map((q) => q.id);
      singles.push(time(() => store.queue.reorder([order[order.length - 1]!], order[i % 50]!)));
    }
    const whole: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const order = store.queued(queued).map((q) => q.id);
      whole.push(time(() => store.queue.reorder([...order].reverse(), null)));
    }
    const view = time(() => store.queue.queueView(1_000));
    printTable(
      `Reorder in a queue of ${ids.length} (target: reordering all ${ids.length} < 50 ms)`,
      ['what', 'p50 ms', 'p95 ms', 'max ms', 'target'],
      [
        [
          'move one job (200 moves)',
          fmt(percentile(singles, 50), 2),
          fmt(percentile(singles, 95), 2),
          fmt(Math.max(...singles), 2),
          '',
        ],
        [
          `reorder all ${ids.length} (10 runs)`,
          fmt(percentile(whole, 50), 1),
          fmt(percentile(whole, 95), 1),
          fmt(Math.max(...whole), 1),
          mark(percentile(whole, 95) < 50),
        ],
        ['queue.view (1,000 rows)', fmt(view, 1), '', '', ''],
      ],
    );
  } finally {
    store.close();
    void rm(dir, { recursive: true, force: true });
  }
}

export async function run(args: string[]): Promise<void> {
  const jobs = option(args, 'jobs', 200);
  // Long enough that the fakes, not this machine's CPU (storing each image), set the pace.
  const latency = option(args, 'latency', 100);
  console.log('Engines benchmark: four hosted fakes behind one queue, resume after a crash, reordering');
  await throughput(jobs, latency);
  await resume(50);
  reorder(1_000);
}
