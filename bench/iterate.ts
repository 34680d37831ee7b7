/**
 * `npm run bench -- iterate [--runs 20]`: from "Use as input" to the job running on the built-in provider.
 * One 512² image is generated, then each run submits an image-to-image job from it (what the button sends) and
 * times submit → the provider starting its work (the source read from disk and handed over) and → the job's
 * `running` event. The same for a masked edit, a variation and an upscale ×2. Target: < 300 ms.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { createEngine } from '../electron/engine/create-engine.js';
import { defaultProviders } from '../electron/engine/default-providers.js';
import type { Engine } from '../electron/engine/types.js';
import type { GenerateRequest } from '../shared/contract.js';
import { memoryKeyring, percentile } from './lib/engine-kit.js';

const TARGET_MS = 300;

async function waitDone(engine: Engine, id: string): Promise<void> {
  for (;;) {
    const job = await engine.handlers['jobs.get']({ id });
    if (job.status === 'succeeded') return;
    if (job.status !== 'queued' && job.status !== 'running')
      throw new Error(`job ${id} ended ${job.status}: ${job.error?.message ?? ''}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function run(args: string[]): Promise<void> {
  const runsAt = args.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 20;
  const dataDir = await mkdtemp(join(tmpdir(), 'atelier-bench-iterate-'));
  const entries = defaultProviders();
  const started = new Map<string, number>();
  for (const entry of entries) {
    const provider = entry.provider;
    const generate = provider.generate.bind(provider);
    provider.generate = (request, config, context) => {
      started.set(request.prompt, performance.now());
      return generate(request, config, context);
    };
  }
  const engine = await createEngine(
    {
      dataDir,
      keyring: memoryKeyring(),
    },
    {
      providers: entries,
      housekeepingDelayMs: 0,
      maintenanceIntervalMs: 0,
    },
  );
  const running = new Map<string, number>();
  engine.events.on('jobs.changed', ({ job }) => {
    if (job.status === 'running' && !running.has(job.id)) running.set(job.id, performance.now());
  });
  try {
    const base = { provider: 'builtin', width: 512, height: 512, count: 1, steps: 8 } as const;
    const { job } = await engine.handlers['jobs.submit']({ ...base, prompt: 'a harbour at dawn, source', seed: 1 });
    await waitDone(engine, job.id);
    const imageId = (await engine.handlers['jobs.get']({ id: job.id })).images[0]!.id;
    const rgba = Buffer.alloc(512 * 512 * 4);
    for (let y = 128; y < 384; y += 1) rgba.fill(255, (y * 512 + 128) * 4, (y * 512 + 384) * 4);
    const png = (
      await sharp(rgba, { raw: { width: 512, height: 512, channels: 4 } })
        .png()
        .toBuffer()
    ).toString('base64');

    const operations: Array<{ name: string; request: (i: number) => Promise<GenerateRequest> }> = [
      {
        name: 'image-to-image',
        request: async (i) => ({ ...base, prompt: `harbour in snow ${i}`, inputImage: { imageId, strength: 0.5 } }),
      },
      {
        name: 'masked edit (incl. saving the mask)',
        request: async (i) => {
          const { maskId } = await engine.handlers['images.saveMask']({ imageId, png });
          return {
            ...base,
            prompt: `harbour with a lighthouse ${i}`,
            inputImage: { imageId },
            mask: { imageId: maskId },
          };
        },
      },
      {
        name: 'variation',
        request: async (i) => ({ ...base, prompt: `a harbour at dawn, variation ${i}`, variationOf: { imageId } }),
      },
      {
        name: 'upscale x2',
        request: async (i) => ({ ...base, prompt: `a harbour at dawn, upscale ${i}`, upscale: { imageId, factor: 2 } }),
      },
    ];
    const rows: string[] = [];
    for (const op of operations) {
      const toProvider: number[] = [];
      const toRunning: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        const t0 = performance.now();
        const request = await op.request(i);
        const { job: next } = await engine.handlers['jobs.submit'](request);
        await waitDone(engine, next.id);
        toProvider.push(started.get(request.prompt)! - t0);
        toRunning.push(running.get(next.id)! - t0);
      }
      const p95 = percentile(toProvider, 95);
      rows.push(
        `| ${op.name.padEnd(36)} | ${percentile(toRunning, 50).toFixed(1).padStart(7)} | ${percentile(toRunning, 95).toFixed(1).padStart(7)} | ${percentile(toProvider, 50).toFixed(1).padStart(7)} | ${p95.toFixed(1).padStart(7)} | ${p95 < TARGET_MS ? 'ok' : 'MISS'} |`,
      );
    }
    console.log(
      `\nFrom the button to the job running on the built-in provider (${runs} runs each, ms; target < ${TARGET_MS} ms)\n`,
    );
    console.log(`| ${'operation'.padEnd(36)} | run p50 | run p95 | gen p50 | gen p95 | target |`);
    console.log(`|${'-'.repeat(38)}|---------|---------|---------|---------|--------|`);
    console.log("(run: the job's running event; gen: the provider starts generating with the source in hand)");
    for (const row of rows) console.log(row);
  } finally {
    await engine.close({ graceMs: 1_000 });
    await rm(dataDir, { recursive: true, force: true });
  }
}
