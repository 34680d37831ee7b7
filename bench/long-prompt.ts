/**
 * `npm run bench -- long-prompt [--runs 5]`: submitting the longest prompt the contract allows (32k characters, in
 * prompt and negative prompt) indexes it for search in linear time. Submits at a quarter, half and the full length:
 * linear means the full length takes about 4× the quarter (the triggers' quadratic SQL would take about 16×, seconds).
 * Target: the full length under 1 s. The test (test/unit/db/list.test.ts) proves the index finds it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openStore } from '../electron/db/store.js';
import { percentile } from './lib/engine-kit.js';

const LONGEST = 31_990;

export async function run(args: string[]): Promise<void> {
  const at = args.indexOf('--runs');
  const runs = at >= 0 ? Math.max(1, Number(args[at + 1])) : 5;
  const dir = mkdtempSync(join(tmpdir(), 'atelier-bench-long-prompt-'));
  const store = openStore({ dataDir: dir });
  try {
    const base = 'abcdefghij klmnopqrs ťuvwxyz 東京 '.repeat(1_000);
    const rows: Array<{ chars: number; runs: number; p50Ms: number; maxMs: number }> = [];
    for (const chars of [LONGEST / 4, LONGEST / 2, LONGEST].map(Math.floor)) {
      const samples: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        const long = `${base.slice(0, chars)} r${i}`;
        const started = performance.now();
        store.submit({
          provider: 'builtin',
          prompt: `${long} ZEBRA`,
          negativePrompt: `${long} ǆq`,
          width: 512,
          height: 512,
          count: 1,
        });
        samples.push(performance.now() - started);
      }
      rows.push({
        chars,
        runs,
        p50Ms: Math.round(percentile(samples, 50) * 10) / 10,
        maxMs: Math.round(Math.max(...samples) * 10) / 10,
      });
    }
    console.table(rows);
    const [quarter, , full] = rows;
    console.log(
      `full / quarter: ${(full!.p50Ms / Math.max(0.1, quarter!.p50Ms)).toFixed(1)}× (linear ≈ 4×); full length ${full!.maxMs < 1000 ? 'within' : 'OVER'} the 1 s target`,
    );
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
