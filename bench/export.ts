/**
 * Export at scale: `npm run bench -- export [--images 10000] [--kb 24]`. Seeds a library of N images (bench/lib/
 * search-seed.ts) with a small PNG of about --kb KB on disk for each, opens the engine, starts a ZIP export of every
 * image with a CSV manifest and downloads it through the headless host (GET /api/export/<id>.zip), discarding the
 * bytes. Prints images/s and the peak RSS sampled during the export (target < 300 MB); nothing is asserted.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { createEngine } from '../electron/engine/create-engine.js';
import { openStore } from '../electron/db/store.js';
import { startServer } from '../electron/serve/server.js';
import { memoryKeyring } from './lib/engine-kit.js';
import { seedLibrary } from './lib/search-seed.js';

const TOKEN = 'bench-export-token-0123456789abcdefghijkl';
const RSS_TARGET_MB = 300;

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
}

/** A PNG of noise (it does not compress) of about `kb` KB; every image's file is a copy of it. */
async function noisePng(kb: number): Promise<Buffer> {
  const side = Math.max(8, Math.round(Math.sqrt((kb * 1024) / 3)));
  const raw = Buffer.alloc(side * side * 3);
  for (let i = 0; i < raw.length; i += 1) raw[i] = (i * 2654435761) >>> 24;
  return sharp(raw, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

export async function run(args: string[]): Promise<void> {
  const inside = args.indexOf('--in');
  if (inside >= 0) return measure(args[inside + 1]!);
  const images = option(args, '--images', 10_000);
  const kb = option(args, '--kb', 24);
  const dir = mkdtempSync(join(tmpdir(), 'atelier-bench-export-'));
  try {
    openStore({ dataDir: dir }).close();
    const seeded = seedLibrary(join(dir, 'atelier.db'), images, Date.now());
    const png = await noisePng(kb);
    const db = new Database(join(dir, 'atelier.db'));
    // The seeded rows name files that are not there: write one per image, with its real size.
    const paths = db.prepare('SELECT id, path FROM images').all() as Array<{ id: string; path: string }>;
    for (const { path } of paths) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), png);
    }
    db.prepare('UPDATE images SET bytes = ?').run(png.length);
    db.close();
    console.log(
      `seeded ${seeded.images.toLocaleString('en')} images of ${png.length.toLocaleString('en')} bytes (a few are in the trash: not exported)`,
    );
    // The export runs in a fresh process: its RSS is the engine's and the export's, not the seeding's.
    execFileSync(process.execPath, [...process.execArgv, process.argv[1]!, 'export', '--in', dir], {
      stdio: 'inherit',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(dir: string): Promise<void> {
  const engine = await createEngine(
    {
      dataDir: dir,
      keyring: memoryKeyring(),
    },
    {
      housekeepingDelayMs: 3_600_000,
      maintenanceIntervalMs: 0,
    },
  );
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>');
  const server = await startServer({ engine, rendererDir, token: TOKEN });
  try {
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    const baseHeap = process.memoryUsage().heapUsed + process.memoryUsage().external;
    let peak = baseline;
    let peakHeap = 0;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed + m.external);
    }, 25);
    const t0 = performance.now();
    const { export: started } = await engine.handlers['export.start']({
      target: { query: { view: 'active' } },
      format: 'zip',
      manifest: 'csv',
    });
    const planned = performance.now();
    const received = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: server.port,
          path: `/api/export/${started.id}.zip`,
          headers: { authorization: `Bearer ${TOKEN}` },
        },
        (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => resolve(bytes));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const done = (await engine.handlers['export.list']({})).items.find((e) => e.id === started.id)!;
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    console.log(
      `export: ${done.status}, ${done.done.toLocaleString('en')}/${done.total.toLocaleString('en')} images, ${done.missing} missing, ZIP ${mb(received)} MB`,
    );
    console.log(`plan (resolve + names + manifest rows): ${((planned - t0) / 1000).toFixed(2)} s`);
    console.log(
      `throughput: ${(done.done / seconds).toFixed(0)} images/s, ${mb(received / seconds)} MB/s (${seconds.toFixed(1)} s)`,
    );
    console.log(
      `peak RSS during export: ${mb(peak)} MB (baseline ${mb(baseline)} MB, JS heap + buffers ${mb(baseHeap)} → at most ${mb(peakHeap)} MB; target < ${RSS_TARGET_MB} MB: ${peak < RSS_TARGET_MB * 1024 * 1024 ? 'ok' : 'MISS'})`,
    );
  } finally {
    await server.close();
    await engine.close({ graceMs: 0 });
  }
}
