/**
 * `npm run bench -- sweep [--steps 20] [--fast 15] [--slow 40]`: a 5×5×2 sweep (50 cells, count 1) across two
 * loopback fake A1111 servers of different speeds through `any:a1111`. Each server's solo throughput is measured in
 * the same run (jobs pinned to it), then the sweep's; the target is the sweep reaching ≥ 90% of the solo sum.
 * Speeds: `--fast` / `--slow` ms per sampling step, `--steps` steps per job.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { GenerateRequest, JobSummary } from '../shared/contract.js';
import { createEngine } from '../electron/engine/create-engine.js';
import { defaultProviders } from '../electron/engine/default-providers.js';
import type { Engine } from '../electron/engine/types.js';
import { startFakeA1111, type FakeA1111 } from '../test/fakes/a1111.js';
import { memoryKeyring } from './lib/engine-kit.js';
import { printTable } from './lib/text-table.js';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);
const TARGET = 0.9;

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  const value = i < 0 ? NaN : Number(args[i + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Every job that reaches a terminal state, from the start (a cell may finish before its sweep's start returns). */
function terminalWatch(engine: Engine): {
  done: Map<string, JobSummary>;
  until(ids: readonly string[]): Promise<void>;
} {
  const done = new Map<string, JobSummary>();
  const waiting: Array<{ ids: readonly string[]; resolve(): void }> = [];
  engine.events.on('jobs.changed', ({ job }) => {
    if (!TERMINAL.has(job.status)) return;
    done.set(job.id, job);
    for (const w of waiting.splice(0)) {
      if (w.ids.every((id) => done.has(id))) w.resolve();
      else waiting.push(w);
    }
  });
  return {
    done,
    until: (ids) =>
      ids.every((id) => done.has(id)) ? Promise.resolve() : new Promise((resolve) => waiting.push({ ids, resolve })),
  };
}

/** A job's time from its claim to its end (the server's work and the engine's storing of its images). */
const runMs = (job: JobSummary): number => (job.completedAt ?? 0) - (job.startedAt ?? 0);
const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

/** Jobs per second of `jobs` jobs pinned to one server, from the first submit to the last end; and their mean run. */
async function solo(
  engine: Engine,
  watch: ReturnType<typeof terminalWatch>,
  base: GenerateRequest,
  provider: string,
  jobs: number,
): Promise<{ rate: number; runMs: number }> {
  const start = performance.now();
  const ids = await Promise.all(
    Array.from({ length: jobs }, async (_, i) => {
      const { job } = await engine.handlers['jobs.submit']({ ...base, provider, seed: i });
      return job.id;
    }),
  );
  await watch.until(ids);
  return {
    rate: jobs / ((performance.now() - start) / 1000),
    runMs: mean(ids.map((id) => runMs(watch.done.get(id)!))),
  };
}

export async function run(args: string[]): Promise<void> {
  const steps = option(args, 'steps', 20);
  const fastMs = option(args, 'fast', 15);
  const slowMs = option(args, 'slow', 40);
  const fakes: FakeA1111[] = [
    await startFakeA1111({ scenario: { kind: 'success', stepMs: fastMs } }),
    await startFakeA1111({ scenario: { kind: 'success', stepMs: slowMs } }),
  ];
  const dataDir = await mkdtemp(join(tmpdir(), 'atelier-bench-sweep-'));
  const engine = await createEngine(
    { dataDir, keyring: memoryKeyring() },
    { providers: defaultProviders(), orphanGraceMs: 0, maintenanceIntervalMs: 0, housekeepingDelayMs: 0 },
  );
  try {
    await engine.handlers['settings.update']({ providers: { a1111: { enabled: true, baseUrl: fakes[0]!.url } } });
    await engine.handlers['providers.add']({ kind: 'a1111', name: 'Slow', baseUrl: fakes[1]!.url });
    await engine.handlers['settings.update']({ providers: { 'a1111-2': { enabled: true } } });
    const watch = terminalWatch(engine);
    const base: GenerateRequest = {
      provider: 'any:a1111',
      prompt: 'a lighthouse at dusk',
      width: 64,
      height: 64,
      count: 1,
      steps,
    };

    // Warm up both servers (connections, first image writes), then measure each alone.
    await solo(engine, watch, base, 'a1111', 2);
    await solo(engine, watch, base, 'a1111-2', 2);
    const fastSolo = await solo(engine, watch, base, 'a1111', 20);
    const slowSolo = await solo(engine, watch, base, 'a1111-2', 8);
    const [fast, slow] = [fastSolo.rate, slowSolo.rate];

    const start = performance.now();
    const { sweep } = await engine.handlers['sweeps.start']({
      base,
      axes: [
        { field: 'seed', values: '1-5' },
        { field: 'guidance', values: '3-7' },
        { field: 'sampler', values: 'Euler a, DPM++ 2M' },
      ],
    });
    const started = performance.now() - start;
    const detail = await engine.handlers['sweeps.get']({ id: sweep.id });
    const ids = detail.cells.map((c) => c.job!.id);
    await watch.until(ids);
    const seconds = (performance.now() - start) / 1000;
    const rate = ids.length / seconds;
    const finished = await engine.handlers['sweeps.get']({ id: sweep.id });
    const perServer = new Map<string, number>();
    // Each server's busy time over the sweep's span: where the sweep's time went beside running jobs.
    const busy = new Map<string, { ms: number; first: number; last: number; runs: number[] }>();
    for (const c of finished.cells) {
      const job = c.job!;
      const server = job.instance ?? '?';
      perServer.set(server, (perServer.get(server) ?? 0) + 1);
      const b = busy.get(server) ?? { ms: 0, first: Infinity, last: 0, runs: [] };
      b.ms += runMs(job);
      b.runs.push(runMs(job));
      b.first = Math.min(b.first, job.startedAt ?? Infinity);
      b.last = Math.max(b.last, job.completedAt ?? 0);
      busy.set(server, b);
    }
    const firstStart = Math.min(...[...busy.values()].map((b) => b.first));
    const lastEnd = Math.max(...[...busy.values()].map((b) => b.last));
    const span = lastEnd - firstStart;
    const ratio = rate / (fast + slow);

    printTable(
      `Sweep 5×5×2 (${ids.length} cells, count 1) over two fake A1111 servers, ${steps} steps at ${fastMs} / ${slowMs} ms a step`,
      ['', 'jobs/s', 'cells'],
      [
        ['a1111 alone (fast)', fast.toFixed(2), ''],
        ['a1111-2 alone (slow)', slow.toFixed(2), ''],
        ['summed', (fast + slow).toFixed(2), ''],
        ['sweep via any:a1111', rate.toFixed(2), [...perServer].map(([s, n]) => `${s} ${n}`).join(', ')],
        [
          'sweep / summed',
          `${(ratio * 100).toFixed(1)}%`,
          `${ratio >= TARGET ? 'met' : 'MISSED'} (target ≥ ${TARGET * 100}%)`,
        ],
      ],
    );
    console.log(`\n${finished.succeeded} succeeded, ${finished.failed} failed in ${seconds.toFixed(2)} s.`);
    console.log(
      `sweeps.start answered in ${started.toFixed(0)} ms; the first cell started to the last ended: ${span} ms.`,
    );
    const soloRun: Record<string, number> = { a1111: fastSolo.runMs, 'a1111-2': slowSolo.runMs };
    for (const [server, b] of busy)
      console.log(
        `${server}: running ${((b.ms / span) * 100).toFixed(0)}% of that span (its first start +${b.first - firstStart} ms, its last end −${lastEnd - b.last} ms); a job ran ${mean(b.runs).toFixed(0)} ms (alone: ${soloRun[server]?.toFixed(0)} ms).`,
      );
  } finally {
    await engine.close({ graceMs: 0 });
    for (const f of fakes) await f.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
