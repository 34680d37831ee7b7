/**
 * `npm run bench -- import [--files 10000] [--avg-kb 1024] [--keep DIR] [--thumb-cap 120] [--watch-files 20] [--statements] [--housekeeping-delay MS]`:
 * the library import (electron/library/import/) at scale.
 * 1. Generates N files across the tools and containers (bench/lib/import-generate.ts) in nested output folders, in a
 *    child process (its buffers stay out of the measured RSS). `--keep DIR` generates there once and reuses it.
 * 2. Imports the folder through a fresh engine (link mode) and prints, per target, what was measured.
 * 3. Reopens the library and times the first history page; measures a watched file's time to appear when the
 *    engine watches. Temp folders are removed unless --keep (the generated set stays; the data dir always goes).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Engine } from '../electron/engine/types.js';
import { readManifest, type Manifest } from './lib/import-generate.js';
import { FOLDERS } from './lib/import-tools.js';
import {
  checkSearch,
  LOOP_RESOLUTION_MS,
  measureImport,
  measureReopen,
  openEngine,
  type ImportRun,
} from './lib/import-measure.js';
import { measureWatchedFile, type WatchRow } from './lib/import-watch.js';
import { timeStatements } from './lib/statement-times.js';

interface Options {
  files: number;
  avgKb: number;
  keep: string | undefined;
  thumbCapS: number;
  watchFiles: number;
  /** Print the store's time per statement over the import (a diagnostic; it adds a timer per call). */
  statements: boolean;
  /** When the engine's start-up housekeeping runs (ms after opening; the app's 3 s when not given). */
  housekeepingDelayMs: number | undefined;
}

function parse(args: string[]): Options {
  const value = (name: string): string | undefined => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const number = (name: string, fallback: number): number => {
    const raw = value(name);
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} wants a positive number, got ${raw}`);
    return n;
  };
  const keep = value('--keep');
  return {
    files: Math.round(number('--files', 10_000)),
    avgKb: number('--avg-kb', 1024),
    keep: keep === undefined ? undefined : resolve(keep),
    thumbCapS: number('--thumb-cap', 120),
    watchFiles: Math.round(number('--watch-files', 20)),
    statements: args.includes('--statements'),
    housekeepingDelayMs:
      value('--housekeeping-delay') === undefined ? undefined : number('--housekeeping-delay', 3_000),
  };
}

const here = import.meta.dirname;

/** Runs the generator in its own process; its last stdout line is the manifest. */
function generate(dir: string, files: number, avgKb: number): Promise<Manifest> {
  return new Promise((resolveManifest, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(here, 'lib', 'import-generate-main.ts'), dir, String(files), String(avgKb)],
      {
        cwd: resolve(here, '..'),
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`the generator exited with ${code}`));
      resolveManifest(JSON.parse(out.trim().split('\n').at(-1)!) as Manifest);
    });
  });
}

/** The generated set: reused from --keep DIR when it holds the same set, else made (refusing a folder holding other files). */
async function fileSet(options: Options): Promise<{ root: string; manifest: Manifest; reused: boolean }> {
  const root = options.keep ?? (await mkdtemp(join(tmpdir(), 'atelier-bench-import-files-')));
  if (options.keep !== undefined && existsSync(root)) {
    const manifest = await readManifest(root);
    if (manifest !== null && manifest.files === options.files && manifest.avgKb === options.avgKb)
      return { root, manifest, reused: true };
    if ((await readdir(root)).length > 0) {
      throw new Error(
        manifest === null
          ? `${root} is not empty and holds no bench set: choose an empty or new folder for --keep`
          : `${root} holds a set of ${manifest.files} files at ${manifest.avgKb} KB: use the same --files/--avg-kb, or another folder`,
      );
    }
  }
  await mkdir(root, { recursive: true });
  const need = options.files * options.avgKb * 1024 * 1.2;
  const fs = await statfs(root);
  if (fs.bavail * fs.bsize < need + 5 * 1024 ** 3) {
    if (options.keep === undefined) await rm(root, { recursive: true, force: true });
    throw new Error(
      `${root} has ${Math.round((fs.bavail * fs.bsize) / 1024 ** 3)} GB free; ${options.files} files of ~${options.avgKb} KB need about ${Math.ceil(need / 1024 ** 3)} GB plus 5 GB`,
    );
  }
  console.log(`generating ${options.files.toLocaleString('en')} files (~${options.avgKb} KB each) in ${root} …`);
  try {
    return { root, manifest: await generate(root, options.files, options.avgKb), reused: false };
  } catch (error) {
    // A set cut short (refused, or the disk filled) is never kept: it would only be refused next time.
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

const fmt = (n: number, d = 0): string =>
  Number.isFinite(n) ? n.toLocaleString('en', { maximumFractionDigits: d, minimumFractionDigits: d }) : 'n/a';

interface Row {
  what: string;
  target: string;
  measured: string;
  verdict: 'met' | 'MISSED' | '—';
}

const verdict = (ok: boolean): 'met' | 'MISSED' => (ok ? 'met' : 'MISSED');

function rows(run: ImportRun, reopen: { ms: number; items: number }, watch: WatchRow, files: number): Row[] {
  const scale = files === 100_000 ? '' : ` (at ${fmt(files)} files; the target is for 100,000)`;
  const f = run.final;
  const lost = f.found - (f.imported + f.duplicates + f.skipped + f.failed);
  const lostNote = lost > 0 ? `; ${fmt(lost)} of ${fmt(f.found)} found were never committed` : '';
  const t = run.thumbs;
  return [
    {
      what: 'files indexed per second (metadata + SHA-256, call → all committed)',
      target: '≥ 400/s',
      measured: `${fmt(run.filesPerSecond, 1)}/s committed (${fmt(run.committedMs / 1000, 1)} s; importer's own last rate ${fmt(run.reportedRate ?? NaN, 1)}/s${lostNote})`,
      verdict: verdict(run.filesPerSecond >= 400),
    },
    {
      what: 'library.import call → first imported job announced (jobs.changed)',
      target: '< 1 s',
      measured: `${fmt(run.firstJobMs)} ms`,
      verdict: verdict(run.firstJobMs < 1000),
    },
    {
      what: 'thumbnails per second in the background',
      target: '(none)',
      measured: `${fmt(t.overallPerSecond, 1)}/s overall, ${Number.isFinite(t.afterImportPerSecond) ? `${fmt(t.afterImportPerSecond, 1)}/s` : 'n/a'} after the import; ${fmt(t.made)} of ${fmt(t.wanted)} in ${fmt(t.seconds, 1)} s (${fmt(t.duringImport)} during the import)${t.capped ? ', stopped at the time cap' : ''}`,
      verdict: '—',
    },
    {
      what: `main-loop stall p99 during the import (monitorEventLoopDelay, ${LOOP_RESOLUTION_MS} ms resolution)`,
      target: '< 20 ms',
      measured: `p99 ${fmt(run.stallImport.p99, 1)} ms, max ${fmt(run.stallImport.max, 1)} ms (thumbnail phase after it: p99 ${fmt(run.stallThumbs.p99, 1)}, max ${fmt(run.stallThumbs.max, 1)})`,
      verdict: verdict(run.stallImport.p99 < 20),
    },
    {
      what: `peak RSS${scale}`,
      target: '< 400 MB at 100,000',
      measured: `${fmt(run.peakRssImportMb)} MB during the import, ${fmt(run.peakRssMb)} MB with the thumbnails (engine open, before: ${fmt(run.baselineRssMb)} MB)`,
      verdict: verdict(run.peakRssMb < 400),
    },
    {
      what: `reopen: createEngine → first jobs.list page (60)${files === 100_000 ? '' : ` (a ${fmt(files)}-image library)`}`,
      target: '< 1 s (first paint; engine part)',
      measured: `${fmt(reopen.ms)} ms (${reopen.items} items)`,
      verdict: verdict(reopen.ms < 1000 && reopen.items > 0),
    },
    {
      what: "a watched file's time to appear (last write → jobs.changed)",
      target: 'p95 < 2 s',
      measured: watch.measured,
      verdict: watch.p95Ms === undefined ? '—' : verdict(watch.p95Ms < 2000),
    },
  ];
}

/** Each top-level folder's files/s: the time between the progress crossings of its first and last file. */
function rateByFolder(run: ImportRun, manifest: Manifest): string {
  // Files never committed (see the warning) would leave the last folder open: it ends when the import did.
  const at = (count: number): number => run.timeline.find((p) => p.processed >= count)?.ms ?? run.committedMs;
  let before = 0;
  let from = 0;
  const parts: string[] = [];
  for (const { folder, kinds } of FOLDERS) {
    const n = kinds.reduce((sum, k) => sum + (manifest.byKind[k] ?? 0), 0);
    if (n === 0) continue;
    const to = at(before + n);
    const rate = n / ((to - from) / 1000);
    // Progress comes every 250 ms: a folder done between two events has no rate of its own.
    parts.push(`${folder} ${Number.isFinite(rate) && to > from ? `${fmt(rate)}/s` : 'n/a'}`);
    before += n;
    from = to;
  }
  return parts.join(', ');
}

export async function run(args: string[]): Promise<void> {
  const options = parse(args);
  const { root, manifest, reused } = await fileSet(options);
  const dataDir = await mkdtemp(join(tmpdir(), 'atelier-bench-import-data-'));
  const watchDir = await mkdtemp(join(tmpdir(), 'atelier-bench-import-watch-'));
  let engine: Engine | undefined;
  try {
    const gen = reused
      ? `reused from ${root} (made earlier in ${fmt(manifest.generateSeconds, 1)} s)`
      : `${fmt(manifest.generateSeconds, 1)} s (${fmt(manifest.baseSeconds, 1)} s of it for the 40 base images)`;
    console.log(
      `\nfile set: ${fmt(manifest.files)} files, ${fmt(manifest.totalBytes / 1024 ** 3, 2)} GB, average ${fmt(manifest.totalBytes / manifest.files / 1024)} KB; generation ${gen}`,
    );
    console.log(
      `  ${Object.entries(manifest.byKind)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    );

    const statements = options.statements ? timeStatements() : undefined;
    engine = await openEngine(dataDir, options.housekeepingDelayMs);
    statements?.reset();
    let statementReport = '';
    const imported = await measureImport(engine, root, options.thumbCapS, () => {
      statementReport = statements?.report(12) ?? '';
      statements?.restore();
    });
    const search = await checkSearch(engine, manifest.samples);
    const reopen = await measureReopen(engine, dataDir);
    engine = reopen.engine;
    const watch =
      manifest.plainSample === null
        ? { measured: 'not measured (no plain PNG in the set to derive files from)' }
        : await measureWatchedFile({
            engine,
            folder: join(watchDir, 'watched'),
            samplePng: join(root, manifest.plainSample),
            files: options.watchFiles,
          });

    const f = imported.final;
    console.log(
      `\nimport ${f.status}: found ${fmt(f.found)}, imported ${fmt(f.imported)}, duplicates ${fmt(f.duplicates)}, skipped ${fmt(f.skipped)} (expected ${manifest.expectSkipped}), failed ${fmt(f.failed)} (expected ${manifest.expectFailed}); search for ${search.of} files' unique prompt words: ${search.found} found`,
    );
    const lost = f.found - (f.imported + f.duplicates + f.skipped + f.failed);
    if (lost > 0)
      console.log(
        `WARNING: the import says ${f.status}, yet ${fmt(lost)} of the ${fmt(f.found)} files found were never committed (left pending)`,
      );
    console.log(
      `\nLibrary import, ${fmt(manifest.files)} files, link mode, on this machine (2 cores shared with other work: numbers are noisy; files are in the page cache, having just been written)\n`,
    );
    console.log('| measure | target | measured | |');
    console.log('| --- | --- | --- | --- |');
    for (const r of rows(imported, reopen, watch, manifest.files))
      console.log(`| ${r.what} | ${r.target} | ${r.measured} | ${r.verdict} |`);
    console.log(`\nfiles/s by tool folder (files are read in the order found): ${rateByFolder(imported, manifest)}`);
    const stalls = imported.longStalls;
    const shown = [...stalls]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 12)
      .sort((a, b) => a.atS - b.atS);
    const more = stalls.length > shown.length ? ` (the longest ${shown.length} of ${stalls.length})` : '';
    console.log(
      `main-loop stalls over 100 ms during the import${more}: ${stalls.length === 0 ? 'none' : shown.map((x) => `+${fmt(x.atS, 1)} s ${fmt(x.ms)} ms`).join(', ')}`,
    );
    if (statementReport !== '') console.log(`\n${statementReport}`);
  } finally {
    const t0 = performance.now();
    await engine?.close({ graceMs: 0 }).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    await rm(watchDir, { recursive: true, force: true });
    if (options.keep === undefined) await rm(root, { recursive: true, force: true });
    console.log(
      `\ncleaned up in ${fmt((performance.now() - t0) / 1000, 1)} s${options.keep === undefined ? '' : ` (kept the file set in ${root})`}`,
    );
  }
}
