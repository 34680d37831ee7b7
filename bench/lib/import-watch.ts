/**
 * The watched-folder row of `npm run bench -- import`: a folder imported with watch on, then new files written into
 * it one at a time; each one's time from its last write to its `jobs.changed`. Measured only when the engine really
 * watches (library.folders says 'watching'); otherwise the row says so.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Engine } from '../../electron/engine/types.js';
import { firstIdatOffset, pngWith, tEXt } from './import-containers.js';
import { percentile } from './engine-kit.js';

export interface WatchRow {
  measured: string;
  /** p95 in ms, when measured. */
  p95Ms?: number;
}

export interface WatchContext {
  engine: Engine;
  /** An empty folder outside the data dir, removed by the caller. */
  folder: string;
  /** A PNG of the generated set to derive new files from (a new text chunk each: a new hash and prompt). */
  samplePng: string;
  files: number;
}

async function waitUntil(probe: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await probe()) return true;
    await sleep(20);
  }
  return false;
}

export async function measureWatchedFile(ctx: WatchContext): Promise<WatchRow> {
  const { engine, folder } = ctx;
  await mkdir(folder, { recursive: true });
  const base = await readFile(ctx.samplePng);
  const idatAt = firstIdatOffset(base);
  // One file already there, so the import has something to do before the watcher takes over.
  await copyFile(ctx.samplePng, join(folder, 'seed.png'));
  const { import: started } = await engine.handlers['library.import']({ paths: [folder], mode: 'link', watch: true });
  const ended = await waitUntil(
    async () =>
      (await engine.handlers['library.imports']({})).items.some((i) => i.id === started.id && i.status !== 'running'),
    30_000,
  );
  if (!ended) return { measured: "not measured (the watched folder's import did not finish in 30 s)" };
  const watching = await waitUntil(
    async () => (await engine.handlers['library.folders']({})).items.some((f) => f.watchState === 'watching'),
    3_000,
  );
  if (!watching) return { measured: 'not measured (watching not wired)' };

  const seen = new Map<string, number>();
  const off = engine.events.on('jobs.changed', ({ job }) => {
    const token = /watchuid\d+x/.exec(job.prompt)?.[0];
    if (token !== undefined && !seen.has(token)) seen.set(token, performance.now());
  });
  const latencies: number[] = [];
  let lost = 0;
  try {
    for (let i = 0; i < ctx.files; i += 1) {
      const token = `watchuid${i}x`;
      const bytes = pngWith(base, idatAt, [
        tEXt(
          'parameters',
          `a watched lantern ${token}\nSteps: 20, Sampler: Euler a, CFG scale: 7, Seed: ${i}, Size: 512x512`,
        ),
      ]);
      await writeFile(join(folder, `watched-${i}.png`), bytes);
      const written = performance.now();
      if (await waitUntil(() => seen.has(token), 10_000)) latencies.push(seen.get(token)! - written);
      else lost += 1;
    }
  } finally {
    off();
  }
  if (latencies.length === 0) return { measured: `no watched file appeared within 10 s (${ctx.files} written)` };
  const p95 = percentile(latencies, 95);
  return {
    measured: `p95 ${Math.round(p95)} ms, max ${Math.round(Math.max(...latencies))} ms over ${latencies.length} files${lost > 0 ? `; ${lost} never appeared` : ''}`,
    p95Ms: lost > 0 ? Infinity : p95,
  };
}
