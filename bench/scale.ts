/**
 * `npm run bench -- scale [--jobs 40] [--step-ms 10] [--steps 20]`: several servers of one kind.
 * Two fake ComfyUI servers, the second twice as fast (step time 2x and 1x), 40 jobs submitted as any:comfyui:
 * throughput of each alone and of both together (target: together >= 90% of the sum), seconds a healthy server sat
 * idle while jobs waited (target 0), and, with the slow server killed mid-run, how long until the job it was running
 * starts on the other (target < 5 s).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEngine } from '../electron/engine/create-engine.js';
import { defaultProviders } from '../electron/engine/default-providers.js';
import type { Engine } from '../electron/engine/types.js';
import type { JobSummary } from '../shared/contract.js';
import { startFakeComfyUI, type FakeComfy } from '../test/fakes/index.js';
import { memoryKeyring } from './lib/engine-kit.js';

const CHECKPOINT = 'v1-5-pruned-emaonly.safetensors';
const SLOW = 'comfyui';
/** One job's end to the next one's start on the same server: a pass of the worker, not a wait. */
const HANDOFF_MS = 50;
const FAST = 'comfyui-2';

interface Run {
  seconds: number;
  jobsPerSecond: number;
  succeeded: number;
  /** Seconds with nothing running on a healthy server while jobs waited: all of it, and gaps past a handoff. */
  idle: number;
  stalled: number;
  gaps: number;
  ranOn: Map<string, number>;
  /** Kill scenario: the kill, the dead server seen down, and the lost job starting again elsewhere (ms since start). */
  killedAt?: number;
  downAt?: number;
  rerunStartedAt?: number;
}

function arg(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(`--${name}`);
  const value = at >= 0 ? Number(args[at + 1]) : NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

async function scenario(options: {
  jobs: number;
  steps: number;
  slowStepMs: number;
  fastStepMs: number;
  use: 'slow' | 'fast' | 'both';
  killAfter?: number;
}): Promise<Run> {
  const slow = await startFakeComfyUI({ scenario: { kind: 'success', stepMs: options.slowStepMs } });
  const fast = await startFakeComfyUI({ scenario: { kind: 'success', stepMs: options.fastStepMs } });
  const dataDir = await mkdtemp(join(tmpdir(), 'atelier-bench-scale-'));
  const engine: Engine = await createEngine(
    {
      dataDir,
      keyring: memoryKeyring(),
    },
    {
      providers: defaultProviders(),
      orphanGraceMs: 0,
      maintenanceIntervalMs: 0,
    },
  );
  const alive: FakeComfy[] = [slow, fast];
  try {
    await engine.handlers['settings.update']({
      concurrency: { global: 4 },
      providers: { comfyui: { enabled: options.use !== 'fast', baseUrl: slow.url, concurrency: 1 } },
    });
    await engine.handlers['providers.add']({ kind: 'comfyui', name: 'Fast GPU', baseUrl: fast.url, concurrency: 1 });
    await engine.handlers['settings.update']({ providers: { [FAST]: { enabled: options.use !== 'slow' } } });
    const healthy = new Set(options.use === 'both' ? [SLOW, FAST] : [options.use === 'slow' ? SLOW : FAST]);

    const queued = new Set<string>();
    const running = new Map<string, Set<string>>([
      [SLOW, new Set()],
      [FAST, new Set()],
    ]);
    const where = new Map<string, string>();
    // Per server, since when it has been idle with jobs waiting.
    const idleSince = new Map<string, number>();
    const ranOn = new Map<string, number>([
      [SLOW, 0],
      [FAST, 0],
    ]);
    let finished = 0;
    let succeeded = 0;
    let lostJob: string | undefined;
    let killing = false;
    const run: Run = { seconds: 0, jobsPerSecond: 0, succeeded: 0, idle: 0, stalled: 0, gaps: 0, ranOn };
    let resolveAll!: () => void;
    const all = new Promise<void>((resolve) => (resolveAll = resolve));
    const started = performance.now();

    // After each event: a server with nothing running while jobs wait opens a gap; running again (or no more waiting) closes it.
    const account = (): void => {
      const now = performance.now();
      for (const id of [SLOW, FAST]) {
        const waiting = healthy.has(id) && queued.size > 0 && running.get(id)!.size === 0;
        const since = idleSince.get(id);
        if (waiting && since === undefined) idleSince.set(id, now);
        if (!waiting && since !== undefined) {
          const gap = now - since;
          run.idle += gap / 1000;
          run.gaps += 1;
          if (gap > HANDOFF_MS) run.stalled += gap / 1000;
          idleSince.delete(id);
        }
      }
    };
    // Mid-run: a little after a job started on the slow server, so there is a job on it to lose.
    const kill = (victim: string): void => {
      run.killedAt = performance.now() - started;
      healthy.delete(SLOW);
      lostJob = victim;
      alive.splice(alive.indexOf(slow), 1);
      void slow.close();
      // How soon placement stops counting on it: the first list that shows it down.
      const poll = setInterval(() => {
        void engine.handlers['providers.list']({}).then(({ providers }) => {
          if (run.downAt === undefined && providers.find((p) => p.id === SLOW)?.health.state === 'down') {
            run.downAt = performance.now() - started;
            clearInterval(poll);
          }
        });
      }, 20);
      poll.unref();
    };

    engine.events.on('jobs.changed', ({ job }: { job: JobSummary }) => {
      const before = where.get(job.id);
      if (before !== undefined) running.get(before)?.delete(job.id);
      where.delete(job.id);
      queued.delete(job.id);
      if (job.status === 'queued') queued.add(job.id);
      else if (job.status === 'running' && job.instance !== undefined) {
        running.get(job.instance)?.add(job.id);
        where.set(job.id, job.instance);
        if (job.id === lostJob && job.instance === FAST) run.rerunStartedAt ??= performance.now() - started;
        if (job.instance === SLOW && options.killAfter !== undefined && finished >= options.killAfter && !killing) {
          killing = true;
          setTimeout(() => kill(job.id), (options.steps * options.slowStepMs) / 2);
        }
      } else if (job.status !== 'running') {
        finished += 1;
        if (job.status === 'succeeded') {
          succeeded += 1;
          if (job.instance !== undefined) ranOn.set(job.instance, ranOn.get(job.instance)! + 1);
        }
        if (finished === options.jobs) resolveAll();
      }
      account();
    });

    for (let i = 0; i < options.jobs; i += 1) {
      await engine.handlers['jobs.submit']({
        provider: 'any:comfyui',
        model: CHECKPOINT,
        prompt: `scale ${i}`,
        width: 64,
        height: 64,
        count: 1,
        steps: options.steps,
      });
    }
    await all;
    run.seconds = (performance.now() - started) / 1000;
    run.jobsPerSecond = options.jobs / run.seconds;
    run.succeeded = succeeded;
    return run;
  } finally {
    await engine.close({ graceMs: 0 });
    for (const fake of alive) await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const fmt = (n: number | undefined, d = 2): string => (n === undefined || !Number.isFinite(n) ? 'n/a' : n.toFixed(d));
const mark = (ok: boolean): string => (ok ? 'ok' : 'MISSED');

export async function run(args: string[]): Promise<void> {
  const jobs = arg(args, 'jobs', 40);
  const steps = arg(args, 'steps', 20);
  const fastStepMs = arg(args, 'step-ms', 10);
  const base = { jobs, steps, fastStepMs, slowStepMs: fastStepMs * 2 };
  console.log(
    `\nScale: two fake ComfyUI servers (step ${base.slowStepMs} ms and ${fastStepMs} ms, ${steps} steps a job, concurrency 1 each), ${jobs} jobs as any:comfyui\n`,
  );
  const slowAlone = await scenario({ ...base, use: 'slow' });
  const fastAlone = await scenario({ ...base, use: 'fast' });
  const both = await scenario({ ...base, use: 'both' });
  const killed = await scenario({ ...base, use: 'both', killAfter: Math.floor(jobs / 4) });
  const sum = slowAlone.jobsPerSecond + fastAlone.jobsPerSecond;
  const share = both.jobsPerSecond / sum;
  const rows: Array<[string, Run]> = [
    ['slow alone', slowAlone],
    ['fast alone', fastAlone],
    ['both', both],
    ['both, slow killed', killed],
  ];
  console.log(
    `| run | s | jobs/s | succeeded | ran on slow / fast | idle s on a healthy server while jobs waited: gaps past ${HANDOFF_MS} ms / all (handoffs) |`,
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [name, r] of rows) {
    console.log(
      `| ${name} | ${fmt(r.seconds)} | ${fmt(r.jobsPerSecond)} | ${r.succeeded}/${jobs} | ${r.ranOn.get(SLOW)} / ${r.ranOn.get(FAST)} | ${fmt(r.stalled, 3)} / ${fmt(r.idle, 3)} (${r.gaps}) |`,
    );
  }
  const downMs =
    killed.downAt === undefined || killed.killedAt === undefined ? undefined : killed.downAt - killed.killedAt;
  const rerunMs =
    killed.rerunStartedAt === undefined || killed.killedAt === undefined
      ? undefined
      : killed.rerunStartedAt - killed.killedAt;
  console.log('\n| target | measured | |');
  console.log('| --- | ---: | --- |');
  console.log(
    `| together >= 90% of the sum alone (${fmt(sum)} jobs/s) | ${fmt(share * 100, 1)}% | ${mark(share >= 0.9)} |`,
  );
  console.log(
    `| idle on a healthy server while jobs wait: 0 s beyond the ${HANDOFF_MS} ms handoff | ${fmt(both.stalled, 3)} s together, ${fmt(killed.stalled, 3)} s with the kill | ${mark(both.stalled === 0 && killed.stalled === 0)} |`,
  );
  console.log(`| killed server seen down | ${fmt(downMs === undefined ? undefined : downMs / 1000, 3)} s | |`);
  console.log(
    `| its lost job starts on the other server < 5 s | ${fmt(rerunMs === undefined ? undefined : rerunMs / 1000, 3)} s | ${mark(rerunMs !== undefined && rerunMs < 5_000)} |`,
  );
}
