/**
 * Search and curation at scale: `npm run bench -- search [--images 1000000]` (`--jobs N` is read the same way).
 * Seeds a library of about N images in jobs of 1–4 with realistic settings (bench/lib/search-seed.ts), opens it with
 * openStore, and times through store.list / store.curation: the first page of each query shape, three clauses, a
 * page deep into the results, tag and rate 10,000 matches, suggestions and counts. Each page is compared in the same
 * run with the naive way (bench/lib/search-shapes.ts) after checking both return the same jobs. Targets are printed
 * as thresholds beside the numbers; nothing is asserted (the machine is shared, timings are noisy).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { createCountPool, type CountPool } from '../electron/db/count-pool.js';
import { openStore } from '../electron/db/store.js';
import { SUMMARY_COLUMNS } from '../electron/db/context.js';
import type { JobStore } from '../electron/db/types.js';
import { rng } from '../test/fixtures/seeded-random.js';
import { seedLibrary } from './lib/search-seed.js';
import { DEEP, SUGGEST_TEXTS, shapes, type Naive, type Shape } from './lib/search-shapes.js';

const RUNS = 50;
const NAIVE_RUNS = 4;
const PAGE = 60;
const DEEP_PAGES = 50;

function option(args: string[], names: string[], fallback: number): number {
  for (const name of names) {
    const at = args.indexOf(name);
    if (at >= 0) return Number(args[at + 1]);
  }
  return fallback;
}

interface Timing {
  p50: number;
  p95: number;
  max: number;
}

function timeEach(runs: number, fn: (i: number) => void): Timing {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    fn(i);
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const at = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]!;
  return { p50: at(0.5), p95: at(0.95), max: samples[samples.length - 1]! };
}

const ms = (v: number) => (v < 10 ? v.toFixed(2) : v < 1000 ? v.toFixed(1) : Math.round(v).toLocaleString('en'));

function table(title: string, head: string[], body: string[][]): void {
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((r) => (r[c] ?? '').length)));
  console.log(`\n${title}`);
  for (const row of [head, widths.map((w) => '-'.repeat(w)), ...body])
    console.log(
      row
        .map((cell, c) => (cell ?? '').padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    );
}

const verdict = (ok: boolean) => (ok ? 'ok' : 'MISS');

/** How long `fn` took, and the longest the event loop waited meanwhile (what a window's input would have). */
async function heldWhile<T>(fn: () => Promise<T>): Promise<{ ms: number; held: number }> {
  let held = 0;
  let last = performance.now();
  let running = true;
  const tick = () => {
    const at = performance.now();
    held = Math.max(held, at - last);
    last = at;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  running = false;
  held = Math.max(held, performance.now() - last);
  return { ms, held };
}

/** jobs.count as curation-handlers.ts answers it. */
async function countThroughPool(store: JobStore, pool: CountPool, query: { search?: string }): Promise<void> {
  const plan = store.curation.countPlan(query);
  if (!('counts' in plan)) plan.finish(await pool.count(plan.statements, plan.version));
}

export async function run(args: string[]): Promise<void> {
  const images = option(args, ['--images', '--jobs'], 1_000_000);
  if (!Number.isInteger(images) || images < 10_000) throw new Error('--images must be a whole number ≥ 10000');
  // --db DIR keeps the seeded library there for another run (delete it after); by default a temp dir, removed.
  const keepAt = args.indexOf('--db');
  const dir = keepAt >= 0 ? args[keepAt + 1]! : mkdtempSync(join(tmpdir(), 'atelier-bench-search-'));
  try {
    const now = Date.now();
    const t0 = performance.now();
    let seeded: { jobs: number; images: number; newest: number };
    if (keepAt >= 0 && existsSync(join(dir, 'seeded.json'))) {
      seeded = JSON.parse(readFileSync(join(dir, 'seeded.json'), 'utf8')) as typeof seeded;
    } else {
      mkdirSync(dir, { recursive: true });
      openStore({ dataDir: dir }).close();
      seeded = seedLibrary(join(dir, 'atelier.db'), images, now, (done) =>
        console.error(`seeded ${done.toLocaleString('en')} images`),
      );
      writeFileSync(join(dir, 'seeded.json'), JSON.stringify(seeded));
    }
    const seedSeconds = (performance.now() - t0) / 1000;
    const stats = new Database(join(dir, 'atelier.db'), { readonly: true });
    const hasStats = stats.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get() !== undefined;
    stats.close();
    const dbBytes =
      statSync(join(dir, 'atelier.db')).size +
      (statSync(join(dir, 'atelier.db-wal'), { throwIfNoEntry: false })?.size ?? 0);
    const store: JobStore = openStore({ dataDir: dir });
    const raw = new Database(join(dir, 'atelier.db'), { readonly: true });
    const pool = createCountPool({ path: join(dir, 'atelier.db') });
    try {
      await measureAll(store, raw, pool, seeded.newest, now);
    } finally {
      await pool.close();
      raw.close();
      store.close();
    }
    console.log(
      `\nAtelier search bench: ${seeded.images.toLocaleString('en')} images in ${seeded.jobs.toLocaleString('en')} jobs, ${seedSeconds > 5 ? `seeded in ${seedSeconds.toFixed(0)} s` : 'seeded by an earlier run'}, ` +
        `${(dbBytes / 1e9).toFixed(2)} GB on disk, ${hasStats ? 'with' : 'without'} sqlite_stat1. ${RUNS} runs per shape (values varied), naive ${NAIVE_RUNS}; times in ms.`,
    );
  } finally {
    if (keepAt < 0) rmSync(dir, { recursive: true, force: true });
  }
}

async function measureAll(
  store: JobStore,
  raw: Database.Database,
  pool: CountPool,
  newest: number,
  now: number,
): Promise<void> {
  const random = rng(9);
  const imageCount = (raw.prepare('SELECT max(rowid) AS n FROM images').get() as { n: number }).n;
  const seedAt = raw.prepare('SELECT seed FROM images WHERE rowid = ?').pluck();
  const seeds = Array.from({ length: 8 }, () => seedAt.get(1 + Math.floor(random() * imageCount)) as number);
  const all = shapes(seeds, now);
  const naiveStatements = new Map<string, Database.Statement>();
  const naivePage = (naive: Naive, offset: number): string[] => {
    const sql = `SELECT ${SUMMARY_COLUMNS} FROM jobs AS j WHERE j.trashed_at IS NULL AND (${naive.where})
      ORDER BY j.created_at DESC, j.id DESC LIMIT ${PAGE} OFFSET ?`;
    let stmt = naiveStatements.get(sql);
    if (stmt === undefined) naiveStatements.set(sql, (stmt = raw.prepare(sql)));
    return (stmt.all(...naive.params, offset) as Array<{ id: string }>).map((r) => r.id);
  };
  const naiveCount = (naive: Naive): number => {
    const sql = `SELECT count(*) AS n FROM jobs AS j WHERE j.trashed_at IS NULL AND (${naive.where})`;
    let stmt = naiveStatements.get(sql);
    if (stmt === undefined) naiveStatements.set(sql, (stmt = raw.prepare(sql)));
    return (stmt.get(...naive.params) as { n: number }).n;
  };
  const page = (search: string, cursor?: string) =>
    store.list({ limit: PAGE, view: 'active', search, ...(cursor === undefined ? {} : { cursor }) });
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

  const rows: string[][] = [];
  for (const shape of all) {
    let mismatch = '';
    const counts: number[] = [];
    shape.queries.forEach((q, i) => {
      const ids = page(q).items.map((j) => j.id);
      counts.push(ids.length);
      const naive = shape.naive(i);
      if (naive !== undefined && !same(ids, naivePage(naive, 0))) mismatch = ` ≠ naive on ${q}`;
    });
    const store1 = timeEach(RUNS, (i) => page(shape.queries[i % shape.queries.length]!));
    const comparable = shape.queries.map((_, i) => i).filter((i) => shape.naive(i) !== undefined);
    const naiveOf = (i: number) => shape.naive(comparable[i % comparable.length]!)!;
    const naive = timeEach(NAIVE_RUNS, (i) => naivePage(naiveOf(i), 0));
    // InvokeAI answers each page request with the page and a COUNT(*) of every match (its total).
    const counted = timeEach(2, (i) => naiveCount(naiveOf(i))).p50 + naive.p50;
    const faster = naive.p50 / store1.p50;
    const fasterCounted = counted / store1.p50;
    const x = (v: number) => `${v.toFixed(v < 100 ? 1 : 0)}×`;
    rows.push([
      shape.name,
      shape.queries.slice(0, 3).join(' · ') + (shape.queries.length > 3 ? ' …' : ''),
      counts.join('/'),
      ms(store1.p50),
      ms(store1.p95),
      `< ${shape.target}`,
      ms(naive.p50),
      x(faster),
      ms(counted),
      x(fasterCounted),
      verdict(store1.p95 < shape.target && mismatch === '') +
        (faster >= 20 ? ', ≥20×' : fasterCounted >= 20 ? ', ≥20× page+count only' : ', <20×') +
        mismatch,
    ]);
    console.error(`${shape.name}: p95 ${ms(store1.p95)} ms`);
  }
  table(
    `First page (${PAGE} jobs), p50/p95 over ${RUNS} runs cycling the values; naive = the same page from a scan of the stored JSON / text (LIMIT, stops at a page)`,
    [
      'shape',
      'queries',
      'page sizes',
      'p50',
      'p95',
      'target',
      'naive page',
      'faster',
      'naive page+count',
      'faster',
      'verdict (p95 < target, same rows; ratio)',
    ],
    rows,
  );

  const deepRows: string[][] = [];
  for (const [name, index] of DEEP) {
    const shape = all.find((s) => s.name === name)!;
    const q = shape.queries[index]!;
    let cursor: string | undefined;
    let pages = 0;
    for (; pages < DEEP_PAGES; pages += 1) {
      const next = page(q, cursor).nextCursor;
      if (next === null) break;
      cursor = next;
    }
    const ids = page(q, cursor).items.map((j) => j.id);
    const naive = shape.naive(index)!;
    const offset = pages * PAGE;
    const agrees = same(ids, naivePage(naive, offset));
    const t = timeEach(RUNS, () => page(q, cursor));
    const n = timeEach(3, () => naivePage(naive, offset));
    const faster = n.p50 / t.p50;
    deepRows.push([
      q,
      `page ${pages + 1}`,
      ms(t.p50),
      ms(t.p95),
      '< 10',
      ms(n.p50),
      `${faster.toFixed(faster < 100 ? 1 : 0)}×`,
      verdict(t.p95 < 10 && agrees) + (faster >= 20 ? ', ≥20×' : ', <20×') + (agrees ? '' : ' ≠ naive'),
    ]);
  }
  table(
    `A page deep into the results (cursors followed ${DEEP_PAGES} pages), p50/p95 over ${RUNS} runs; naive = LIMIT ${PAGE} OFFSET ${DEEP_PAGES * PAGE}`,
    ['query', 'page', 'p50', 'p95', 'target', 'naive p50', 'faster', 'verdict'],
    deepRows,
  );

  bulk(store, raw);
  // As the engine answers search.suggest: planned here; narrowed by the rest of the query on the counting thread.
  const suggestTimes: number[] = [];
  let suggestHeld = 0;
  for (let i = 0; i < RUNS * 4; i += 1) {
    const text = SUGGEST_TEXTS[i % SUGGEST_TEXTS.length]!;
    const t = await heldWhile(async () => {
      const plan = store.curation.suggestPlan(text, text.length);
      if (!('result' in plan)) plan.finish(await pool.count(plan.statements, plan.version));
    });
    suggestTimes.push(t.ms);
    suggestHeld = Math.max(suggestHeld, t.held);
  }
  suggestTimes.sort((a, b) => a - b);
  const suggest = {
    p50: suggestTimes[Math.floor(0.5 * suggestTimes.length)]!,
    p95: suggestTimes[Math.floor(0.95 * suggestTimes.length)]!,
  };
  const countQueries = [
    '',
    'model:juggernaut',
    'lighthouse',
    'rating:>=4',
    'tag:keeper',
    'lighthouse model:juggernaut rating:>=4',
    'steps:20-30',
    'is:favorite',
    'sampler:euler cfg:>=7',
  ];
  const countRows: string[][] = [];
  for (const q of countQueries) {
    const query = q === '' ? {} : { search: q };
    const counts = store.curation.count(query);
    // As the engine answers jobs.count: planned here, counted on the counting thread (cold, then cached per version).
    const cold = await heldWhile(() => countThroughPool(store, pool, query));
    const warm: number[] = [];
    let held = cold.held;
    for (let i = 0; i < RUNS; i += 1) {
      const w = await heldWhile(() => countThroughPool(store, pool, query));
      warm.push(w.ms);
      held = Math.max(held, w.held);
    }
    warm.sort((a, b) => a - b);
    const p95 = warm[Math.floor(0.95 * warm.length)]!;
    countRows.push([
      q === '' ? '(everything)' : q,
      `${counts.active.toLocaleString('en')} / ${counts.images.toLocaleString('en')}`,
      ms(cold.ms),
      ms(p95),
      ms(held),
      verdict(p95 < 300 && held < 50),
    ]);
  }
  table(
    'Suggestions (search.suggest as the engine answers it: narrowed by the rest of the query on the counting thread, cached per version)',
    ['texts', 'p50', 'p95', 'target', 'main-thread max hold', 'verdict'],
    [
      [
        SUGGEST_TEXTS.slice(0, 5).join(' · ') + ' …',
        ms(suggest.p50),
        ms(suggest.p95),
        '< 20',
        ms(suggestHeld),
        verdict(suggest.p95 < 20 && suggestHeld < 50),
      ],
    ],
  );
  table(
    `Counts that follow the query (jobs.count as the engine answers it: compiled here, counted on the counting thread; cold = first ask, then ${RUNS} asks at the same library version); main-thread hold = the longest the event loop waited meanwhile`,
    ['query', 'matches', 'cold', 'p95', 'main-thread max hold', 'verdict (p95 < 300, hold < 50)'],
    countRows,
  );
  void newest;
}

/** Tag and rate "all matches" of a query holding 10,000 images (a seed range), each undone after. */
function bulk(store: JobStore, raw: Database.Database): void {
  const low = 1_000_000_000;
  // The 10,000th seed from `low` up: seeds are spread evenly, so the range's images are spread through the history.
  const high = raw
    .prepare('SELECT seed FROM images WHERE seed >= ? ORDER BY seed LIMIT 1 OFFSET 9999')
    .pluck()
    .get(low) as number | undefined;
  // A small library has fewer than 10,000 seeds above `low`: nothing to act on.
  if (high === undefined) return;
  const search = `seed:${low}-${high}`;
  const best = { search, images: store.curation.count({ search }).images };
  const target = { query: { view: 'active' as const, search: best.search } };
  const tagUndos: string[] = [];
  const tag = timeEach(5, (i) => {
    const done = store.curation.tag(target, [`bulk-${i}`], []);
    if (done.undoId !== null) tagUndos.push(done.undoId);
  });
  const tagCount = store.curation.tags().find((t) => t.name === 'bulk-0')?.count ?? 0;
  const tagUndo = timeEach(tagUndos.length, (i) => store.curation.undo(tagUndos[i]!));
  const rateUndos: string[] = [];
  const rate = timeEach(5, (i) => {
    const done = store.curation.setRating(target, 1 + (i % 5));
    if (done.undoId !== null) rateUndos.push(done.undoId);
  });
  const rateUndo = timeEach(rateUndos.length, (i) => store.curation.undo(rateUndos[rateUndos.length - 1 - i]!));
  table(
    `Bulk actions on all matches of ${best.search} (${best.images.toLocaleString('en')} images), 5 runs, one transaction each`,
    ['action', 'images', 'p50', 'max', 'target', 'verdict'],
    [
      [
        'tag (add a new tag)',
        tagCount.toLocaleString('en'),
        ms(tag.p50),
        ms(tag.max),
        '< 1000',
        verdict(tag.max < 1000),
      ],
      ['  undo', '', ms(tagUndo.p50), ms(tagUndo.max), '', ''],
      ['setRating', best.images.toLocaleString('en'), ms(rate.p50), ms(rate.max), '< 1000', verdict(rate.max < 1000)],
      ['  undo', '', ms(rateUndo.p50), ms(rateUndo.max), '', ''],
    ],
  );
}

export type { Shape };
