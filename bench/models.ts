/**
 * The model library at scale: `npm run bench -- models [--jobs 100000] [--models 2000] [--runs 15]`.
 * Seeds a library of `--jobs` jobs spread over half as many checkpoints and half as many LoRAs as `--models` (with
 * ratings, favourites, trashed and rejected images, a share imported with their model's hash), starts a fake A1111
 * that lists every one of them (sha256 on each checkpoint, training metadata on each LoRA), lists it through
 * models.refresh, then times models.library as the Models screen asks it (every entry, sorted by use, previews):
 * cold (the library changed just before, so the usage is read again) and warm (answered from the usage copy).
 * Target: < 300 ms for 2,000 entries with previews.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEngine } from '../electron/engine/create-engine.js';
import { defaultProviders } from '../electron/engine/default-providers.js';
import { openStore } from '../electron/db/store.js';
import { startFakeA1111 } from '../test/fakes/a1111.js';
import { memoryKeyring, percentile } from './lib/engine-kit.js';
import { seedModelLibrary, seededServerLists } from './lib/model-library-seed.js';
import { printTable } from './lib/text-table.js';

const TARGET_MS = 300;

function flag(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(`--${name}`);
  const value = at >= 0 ? Number(args[at + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? Math.trunc(value) : fallback;
}

export async function run(args: string[]): Promise<void> {
  const jobs = flag(args, 'jobs', 100_000);
  const models = flag(args, 'models', 2_000);
  const runs = flag(args, 'runs', 15);
  const checkpoints = Math.ceil(models / 2);
  const loras = models - checkpoints;
  const dataDir = mkdtempSync(join(tmpdir(), 'atelier-bench-models-'));
  const fake = await startFakeA1111({
    library: seededServerLists(checkpoints, loras),
  });
  try {
    openStore({ dataDir }).close();
    let start = performance.now();
    seedModelLibrary(join(dataDir, 'atelier.db'), { jobs, checkpoints, loras, now: Date.now() });
    console.log(
      `seeded ${jobs.toLocaleString('en')} jobs over ${models.toLocaleString('en')} models and LoRAs in ${((performance.now() - start) / 1000).toFixed(1)} s`,
    );

    const engine = await createEngine(
      { dataDir, keyring: memoryKeyring() },
      // The start-up passes (missing files, hashes of 100,000 images with no files) wait: they would share the loop.
      { providers: defaultProviders(), orphanGraceMs: 0, maintenanceIntervalMs: 0, housekeepingDelayMs: 3_600_000 },
    );
    try {
      await engine.handlers['settings.update']({ providers: { a1111: { enabled: true, baseUrl: fake.url } } });
      start = performance.now();
      const refreshed = await engine.handlers['models.refresh']({});
      const refreshMs = performance.now() - start;
      const ask = () => engine.handlers['models.library']({ sort: 'used', limit: 5_000 });
      const time = async (before: () => Promise<unknown>) => {
        const times: number[] = [];
        let last = await ask();
        for (let i = 0; i < runs; i++) {
          await before();
          const t = performance.now();
          last = await ask();
          times.push(performance.now() - t);
        }
        return { times, last };
      };
      // A note saved then removed moves the library's change count: the next listing reads the usage again.
      let n = 0;
      const change = async () => {
        await engine.handlers['models.setNote']({ key: `bench:${n}`, note: 'x' });
        await engine.handlers['models.setNote']({ key: `bench:${n++}`, note: '' });
      };
      const cold = await time(change);
      const warm = await time(async () => undefined);
      const { items, total } = warm.last;
      const withPreview = items.filter((m) => m.preview !== undefined).length;
      const onServer = items.filter((m) => m.servers.length > 0).length;
      const row = (name: string, times: number[]) => {
        const p95 = percentile(times, 95);
        return [
          name,
          percentile(times, 50).toFixed(1),
          p95.toFixed(1),
          String(TARGET_MS),
          p95 < TARGET_MS ? 'yes' : 'NO',
        ];
      };
      printTable(
        `models.library, ${total.toLocaleString('en')} entries (${onServer.toLocaleString('en')} listed by the server, ${withPreview.toLocaleString('en')} with a preview), ${jobs.toLocaleString('en')} jobs, ${runs} runs each`,
        ['run', 'p50 ms', 'p95 ms', 'target ms', 'met'],
        [row('cold (library changed)', cold.times), row('warm', warm.times)],
      );
      console.log(
        `\nmodels.refresh: ${refreshed.models.toLocaleString('en')} files from ${refreshed.servers} server in ${refreshMs.toFixed(0)} ms`,
      );
    } finally {
      await engine.close({ graceMs: 0 });
    }
  } finally {
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
