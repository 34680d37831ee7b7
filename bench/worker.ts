/**
 * `npm run bench -- worker [--jobs 200] [--only burst|load] [--runs N]`: the provider worker under load.
 * 1. builtin jobs at 512² with concurrency 2; 2. jobs against the fake OpenAI streaming 3 partial previews each.
 * Reports jobs/s, provider completion -> jobs.changed p95, main-loop stall p99 and peak RSS.
 * 3. The burst (bench/lib/burst.ts): a real headless host process, 20 event-stream clients, 200 concurrent submits,
 * jobs.stats every 100 ms; submit and stats latency and the host's own main-loop stall, against the targets.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createEngine } from '../electron/engine/create-engine.js';
import { defaultProviders } from '../electron/engine/default-providers.js';
import type { ProviderEntry } from '../electron/engine/provider-registry.js';
import type { Engine } from '../electron/engine/types.js';
import type { GenerateRequest } from '../shared/contract.js';
import { startFakeOpenAI } from '../test/fakes/index.js';
import { runBurst, storeAloneSubmitsPerSecond, type BurstResult } from './lib/burst.js';
import { memoryKeyring, percentile } from './lib/engine-kit.js';

interface Row {
  scenario: string;
  jobs: number;
  seconds: number;
  jobsPerSecond: number;
  changedP50: number;
  changedP95: number;
  stallP99: number;
  stallMax: number;
  peakRssMb: number;
}

/** Wraps each provider so the moment generate() resolves is known per prompt (prompts are unique per job). */
function instrument(entries: ProviderEntry[], completedAt: Map<string, number>): ProviderEntry[] {
  return entries.map((entry) => {
    const provider = entry.provider;
    const generate = provider.generate.bind(provider);
    provider.generate = async (request, config, context) => {
      const output = await generate(request, config, context);
      completedAt.set(request.prompt, performance.now());
      return output;
    };
    return entry;
  });
}

async function scenario(
  name: string,
  jobs: number,
  globalConcurrency: number,
  entries: ProviderEntry[],
  completedAt: Map<string, number>,
  request: (i: number) => GenerateRequest,
  setup: (engine: Engine) => Promise<void>,
): Promise<Row> {
  const dataDir = await mkdtemp(join(tmpdir(), 'atelier-bench-worker-'));
  const engine = await createEngine(
    {
      dataDir,
      keyring: memoryKeyring(),
    },
    {
      providers: entries,
      orphanGraceMs: 0,
      maintenanceIntervalMs: 0,
    },
  );
  try {
    await engine.handlers['settings.update']({ concurrency: { global: globalConcurrency } });
    await setup(engine);
    const latencies: number[] = [];
    const promptOf = new Map<string, string>();
    let finished = 0;
    let failed = 0;
    let resolveAll!: () => void;
    const all = new Promise<void>((resolve) => (resolveAll = resolve));
    engine.events.on('jobs.changed', ({ job }) => {
      if (job.status === 'queued' || job.status === 'running') return;
      const done = completedAt.get(job.prompt);
      if (done !== undefined) latencies.push(performance.now() - done);
      if (job.status !== 'succeeded') failed += 1;
      finished += 1;
      if (finished === jobs) resolveAll();
    });

    const loop = monitorEventLoopDelay({ resolution: 5 });
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    loop.enable();
    const started = performance.now();
    for (let i = 0; i < jobs; i += 1) {
      const r = request(i);
      promptOf.set(r.prompt, r.prompt);
      await engine.handlers['jobs.submit'](r);
    }
    await all;
    const seconds = (performance.now() - started) / 1000;
    loop.disable();
    clearInterval(sampler);
    if (failed > 0) console.warn(`${name}: ${failed} jobs did not succeed`);
    return {
      scenario: name,
      jobs,
      seconds,
      jobsPerSecond: jobs / seconds,
      changedP50: percentile(latencies, 50),
      changedP95: percentile(latencies, 95),
      // The histogram counts from the timer's own resolution; subtract it to get the stall itself.
      stallP99: Math.max(0, loop.percentile(99) / 1e6 - 5),
      stallMax: Math.max(0, loop.max / 1e6 - 5),
      peakRssMb: peakRss / 1024 / 1024,
    };
  } finally {
    await engine.close({ graceMs: 0 });
    await rm(dataDir, { recursive: true, force: true });
  }
}

const fmt = (n: number, d = 1): string => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

async function burstRows(runs: number): Promise<void> {
  // First, with nothing else running in this process: what the store alone takes (a rate measured while other
  // processes share the cores is not comparable).
  const storeAlone = await storeAloneSubmitsPerSecond(2_000, 256);
  const results: BurstResult[] = [];
  for (let i = 0; i < runs; i += 1) results.push(await runBurst({ submits: 200, clients: 20, size: 256 }));
  const mark = (ok: boolean): string => (ok ? 'ok' : 'MISSED');
  console.log(
    '\nBurst: 200 concurrent jobs.submit (builtin 256²), 20 event-stream clients, jobs.stats every 100 ms, host in its own process',
  );
  console.log(
    '(targets: submit p95 < 100 ms; host main-loop stall p99 < 20 ms, worst < 100 ms, over the whole burst)\n',
  );
  console.log(
    '| run | submit p50 / p95 / max ms | stats wait p95 / max ms | stall while submitting p99 / worst ms | stall whole burst p99 / worst ms | host main-thread CPU ms (submits / whole) | s | succeeded | clients with every final state | driver stall max ms | targets |',
  );
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const [i, r] of results.entries()) {
    const targets = [
      `submit p95 ${mark(r.submitP95 < 100)}`,
      `stall p99 ${mark(r.whole.p99 < 20)}`,
      `worst ${mark(r.whole.max < 100)}`,
    ].join(', ');
    console.log(
      `| ${i + 1} | ${fmt(r.submitP50, 0)} / ${fmt(r.submitP95, 0)} / ${fmt(r.submitMax, 0)} | ${fmt(r.statsP95, 0)} / ${fmt(r.statsMax, 0)} (${r.statsCalls} calls) | ` +
        `${fmt(r.submitWindow.p99)} / ${fmt(r.submitWindow.max)} | ${fmt(r.whole.p99)} / ${fmt(r.whole.max)} | ` +
        `${fmt(r.submitWindow.mainCpuMs - r.reset.mainCpuMs, 0)} / ${fmt(r.whole.mainCpuMs - r.reset.mainCpuMs, 0)} | ${fmt(r.seconds)} | ` +
        `${r.succeeded} / ${r.submits} | ${r.clientsComplete} / ${r.clients} | ${fmt(r.driverMax)} | ${targets} |`,
    );
  }
  console.log(
    `\nstore alone (submit() at 256², nothing else running): ${Math.round(storeAlone).toLocaleString('en')} submits/s`,
  );
}

export async function run(args: string[]): Promise<void> {
  const jobsArg = args.indexOf('--jobs');
  const jobs = jobsArg >= 0 ? Number(args[jobsArg + 1]) : 200;
  const onlyArg = args.indexOf('--only');
  const only = onlyArg >= 0 ? args[onlyArg + 1] : undefined;
  const runsArg = args.indexOf('--runs');
  const runs = runsArg >= 0 ? Math.max(1, Number(args[runsArg + 1])) : 1;
  if (only !== 'load') await burstRows(runs);
  if (only === 'burst') return;
  const rows: Row[] = [];

  const builtinDone = new Map<string, number>();
  const builtinEntries = instrument(
    defaultProviders().filter((e) => e.provider.id === 'builtin'),
    builtinDone,
  );
  rows.push(
    await scenario(
      `builtin 512², concurrency 2`,
      jobs,
      2,
      builtinEntries,
      builtinDone,
      (i) => ({
        provider: 'builtin',
        prompt: `bench ${i}: a quiet harbour at dawn, teal and amber`,
        width: 512,
        height: 512,
        count: 1,
        seed: i,
      }),
      async () => undefined,
    ),
  );

  const fake = await startFakeOpenAI({ apiKey: 'sk-bench' });
  fake.setScenario({ kind: 'success', stepMs: 5 });
  try {
    const openaiDone = new Map<string, number>();
    const openaiEntries = instrument(
      defaultProviders().filter((e) => e.provider.id === 'openai'),
      openaiDone,
    );
    rows.push(
      await scenario(
        'fake OpenAI, 3 partial previews, concurrency 4',
        jobs,
        4,
        openaiEntries,
        openaiDone,
        (i) => ({
          provider: 'openai',
          model: 'gpt-image-1',
          prompt: `bench ${i}: a lantern in fog`,
          width: 1024,
          height: 1024,
          count: 1,
          partialImages: 3,
        }),
        async (engine) => {
          await engine.handlers['settings.update']({
            providers: { openai: { apiKey: 'sk-bench', baseUrl: fake.url, concurrency: 4 } },
          });
        },
      ),
    );
  } finally {
    await fake.close();
  }

  console.log('\nWorker benchmark (targets: completion -> jobs.changed p95 < 50 ms, main-loop stall p99 < 20 ms)\n');
  console.log(
    '| scenario | jobs | s | jobs/s | done->changed p50 ms | p95 ms | loop stall p99 ms | max ms | peak RSS MB |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    console.log(
      `| ${r.scenario} | ${r.jobs} | ${fmt(r.seconds)} | ${fmt(r.jobsPerSecond)} | ${fmt(r.changedP50)} | ${fmt(r.changedP95)} | ${fmt(r.stallP99)} | ${fmt(r.stallMax)} | ${fmt(r.peakRssMb, 0)} |`,
    );
  }
}
