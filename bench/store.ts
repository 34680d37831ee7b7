/**
 * The job store at scale: `npm run bench -- store [--jobs 100000|1000000]`.
 * Seeds a synthetic history in one transaction, then measures submit throughput, history pages (cursor vs OFFSET),
 * search (the store vs a LIKE scan with OFFSET paging, the naive baseline) and stats.
 *
 * Search is compared twice, on the same user action each time, and both sides return the same page (checked):
 * - first page: a LIKE with LIMIT stops as soon as it has a page, its best case (common words match early);
 * - last page of the results: what a person scrolling to the oldest match costs. The baseline pages with
 *   OFFSET, so its LIKE must visit every row of the table; the store continues from its cursor. (For rare and
 *   absent words the first page is already a full-table LIKE scan.)
 * The LIKE baseline selects the same summary columns the store returns, so neither side skips work the other does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { uuidv7 } from '../shared/ids.js';
import { openStore } from '../electron/db/store.js';
import { searchTextOf } from '../electron/db/fold.js';
import { SUMMARY_COLUMNS } from '../electron/db/context.js';
import type { JobStore } from '../electron/db/types.js';
import { rng } from '../test/fixtures/seeded-random.js';

const SUBJECTS = [
  'fox',
  'lighthouse',
  'teapot',
  'castle',
  'robot',
  'forest',
  'dragon',
  'portrait',
  'city',
  'garden',
  'ship',
  'owl',
  'mountain',
  'cat',
  'river',
  'tower',
  'červená liška',
  'Ελληνικός ναός',
  '東京の夜',
];
const STYLES = [
  'watercolor',
  'oil painting',
  'pixel art',
  'photograph',
  'ink sketch',
  'isometric',
  'low poly',
  'charcoal',
  'studio lighting',
  'cinematic',
];
const MOODS = [
  'at dawn',
  'in the rain',
  'under neon lights',
  'in winter',
  'at golden hour',
  'in fog',
  'at night',
  'in spring',
];
const RARE = ['quetzalcoatl', 'zeppelin', 'marzipan', 'obsidian', 'kaleidoscope'];
const PROVIDERS = ['builtin', 'openai', 'a1111', 'comfyui'];
const STATUSES = ['succeeded', 'succeeded', 'succeeded', 'succeeded', 'failed', 'cancelled', 'interrupted'];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function prompt(random: () => number): string {
  const parts = [`${pick(random, STYLES)} of a ${pick(random, SUBJECTS)} ${pick(random, MOODS)}`];
  if (random() < 0.5) parts.push(`with ${pick(random, SUBJECTS)}`);
  // About 1 in 1,000 prompts carries a rare word.
  if (random() < 0.001) parts.push(pick(random, RARE));
  return parts.join(', ');
}

/** Seeds `count` terminal jobs straight into the schema: one transaction, one prepared insert. */
function seed(path: string, count: number, start: number): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const random = rng(42);
  const insert = db.prepare(
    `INSERT INTO jobs (id, status, created_at, updated_at, started_at, completed_at, provider, prompt, width, height, count,
       request_json, search_text, logical_bytes, favorite, progress_stage, partial_images)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 512, 512, 1, ?, ?, ?, ?, 'done', 0)`,
  );
  const tx = db.transaction(() => {
    for (let i = 0; i < count; i += 1) {
      const created = start + i * 1000;
      const text = prompt(random);
      const provider = pick(random, PROVIDERS);
      const request = JSON.stringify({ provider, prompt: text, width: 512, height: 512, count: 1 });
      insert.run(
        uuidv7(created),
        pick(random, STATUSES),
        created,
        created + 900,
        created + 10,
        created + 900,
        provider,
        text,
        request,
        searchTextOf(text),
        request.length + 256,
        random() < 0.05 ? 1 : 0,
      );
    }
  });
  tx();
  db.close();
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Timing {
  p50: number;
  p95: number;
  p99: number;
}

function measure(times: number, fn: (i: number) => void): Timing {
  for (let i = 0; i < Math.min(20, times); i += 1) fn(i); // warm-up (statement cache, page cache, JIT)
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const t0 = performance.now();
    fn(i);
    samples.push(performance.now() - t0);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), p99: percentile(samples, 99) };
}

const ms = (v: number) => `${v < 10 ? v.toFixed(3) : v.toFixed(1)} ms`;

const timing = (t: Timing) => [`p50 ${ms(t.p50)}`, `p95 ${ms(t.p95)}`, `p99 ${ms(t.p99)}`];
const times = (a: Timing, b: Timing) => `${(b.p50 / a.p50).toFixed(a.p50 * 20 > b.p50 ? 1 : 0)}×`;

function table(title: string, head: string[], body: string[][]): void {
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((r) => (r[c] ?? '').length)));
  console.log(`\n${title}`);
  for (const row of [head, widths.map((w) => '-'.repeat(w)), ...body]) {
    console.log(
      row
        .map((cell, c) => (cell ?? '').padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    );
  }
}

/** submit() on a fresh library with the store's durability (WAL + synchronous=NORMAL), every submit keyed. */
function submitThroughput(dir: string, n: number): { perSecond: number; oldCountUs: number; totalsUs: number } {
  const store = openStore({ dataDir: dir, limits: { maxPendingJobs: 1_000_000 } });
  const random = rng(7);
  const t0 = performance.now();
  for (let i = 0; i < n; i += 1) {
    store.submit({
      provider: 'builtin',
      prompt: prompt(random),
      width: 512,
      height: 512,
      count: 1,
      idempotencyKey: `k${i}`,
    });
  }
  const perSecond = n / ((performance.now() - t0) / 1000);
  store.close();
  // What admission used to cost per submit (COUNT of pending rows, here n of them) vs the one totals row read now.
  const db = new Database(join(dir, 'atelier.db'), { readonly: true });
  const oldCount = db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE status IN ('queued', 'running')");
  const totals = db.prepare('SELECT queued + running AS pending, logical_bytes FROM store_totals WHERE id = 1');
  const us = (stmt: Database.Statement) => measure(500, () => stmt.get()).p50 * 1000;
  const result = { perSecond, oldCountUs: us(oldCount), totalsUs: us(totals) };
  db.close();
  return result;
}

export function run(args: string[]): void {
  const jobsArg = args.indexOf('--jobs');
  const total = jobsArg >= 0 ? Number(args[jobsArg + 1]) : 100_000;
  if (!Number.isInteger(total) || total < 1000) throw new Error('--jobs must be a whole number ≥ 1000');
  const deep = Math.min(50_000, Math.floor(total / 2));
  const dir = mkdtempSync(join(tmpdir(), 'atelier-bench-store-'));
  const rows: string[][] = [];
  const searchRows: string[][] = [];
  try {
    const n = 5_000;
    const submit = submitThroughput(join(dir, 'submit'), n);
    rows.push([
      'submit() throughput (WAL, synchronous=NORMAL, idempotency key)',
      `${Math.round(submit.perSecond).toLocaleString('en')} jobs/s`,
      `${n} submits`,
      '',
      '',
    ]);
    rows.push([
      `  admission check at ${n.toLocaleString('en')} queued: totals row (now)`,
      `${submit.totalsUs.toFixed(1)} µs`,
      '',
      '',
      `was COUNT(*) of pending rows: ${submit.oldCountUs.toFixed(1)} µs`,
    ]);

    const libDir = join(dir, 'library');
    openStore({ dataDir: libDir }).close();
    const seedStart = performance.now();
    seed(join(libDir, 'atelier.db'), total, Date.UTC(2024, 0, 1));
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const store: JobStore = openStore({ dataDir: libDir });
    const raw = new Database(join(libDir, 'atelier.db'), { readonly: true });
    try {
      const offsetPage = raw.prepare(
        `SELECT ${SUMMARY_COLUMNS} FROM jobs AS j WHERE j.trashed_at IS NULL ORDER BY j.created_at DESC, j.id DESC LIMIT 60 OFFSET ?`,
      );
      // The cursor to a page `deep` rows down, as a client would hold it after scrolling.
      let cursor: string | null = null;
      {
        let seen = 0;
        while (seen < deep) {
          const page = store.list({ limit: 200, view: 'active', ...(cursor === null ? {} : { cursor }) });
          seen += page.items.length;
          cursor = page.nextCursor;
        }
      }
      // Many samples: a p95/p99 from a few hundred sub-millisecond samples is mostly GC and scheduler noise.
      const first = measure(2000, () => store.list({ limit: 60, view: 'active' }));
      const firstOffset = measure(1000, () => offsetPage.all(0));
      const deepCursor = measure(2000, () => store.list({ limit: 60, view: 'active', cursor: cursor! }));
      const deepOffset = measure(50, () => offsetPage.all(deep));
      rows.push(['first page (60): cursor', ...timing(first), '']);
      rows.push(['first page (60): OFFSET 0 (SQL only)', ...timing(firstOffset), '']);
      rows.push([
        `page ${deep.toLocaleString('en')} deep: cursor`,
        ...timing(deepCursor),
        `${times(deepCursor, deepOffset)} faster than OFFSET`,
      ]);
      rows.push([`page ${deep.toLocaleString('en')} deep: OFFSET (SQL only)`, ...timing(deepOffset), '']);
      const fav = measure(1000, () => store.list({ limit: 60, view: 'active', favorite: true }));
      rows.push(['first page, favorites only', ...timing(fav), '']);
      const status = measure(1000, () =>
        store.list({ limit: 60, view: 'active', status: ['failed'], provider: 'openai' }),
      );
      rows.push(['first page, status=failed + provider', ...timing(status), '']);
      const stats = measure(1000, () => store.stats());
      rows.push(['stats()', ...timing(stats), '']);

      const searches: Array<[string, string]> = [
        ['common', 'watercolor'],
        ['common, 2 terms', 'lighthouse fog'],
        ['rare', 'quetzalcoatl'],
        ['rare', 'marzipan'],
        ['non-Latin, any case', 'ČERVENÁ'],
        ['absent', 'xylophone'],
        ['1–2 chars', 'ow'],
      ];
      for (const [kind, text] of searches) {
        const terms = text.toLowerCase().split(/\s+/);
        // Every word must match, as in the store: one LIKE per word, ANDed.
        const where = terms.map(() => "lower(j.prompt) LIKE ? ESCAPE '\\'").join(' AND ');
        const like = raw.prepare(
          `SELECT ${SUMMARY_COLUMNS} FROM jobs AS j WHERE j.trashed_at IS NULL AND ${where}
           ORDER BY j.created_at DESC, j.id DESC LIMIT 60 OFFSET ?`,
        );
        const patterns = terms.map((t) => `%${t}%`);
        // Page through the store to the last page of results, keeping the cursor a client would hold there.
        let pages = 0;
        let lastCursor: string | undefined;
        let lastIds: string[] = [];
        let firstIds: string[] = [];
        for (let next: string | undefined, page; ; next = page.nextCursor) {
          page = store.list({
            limit: 60,
            view: 'active',
            search: text,
            ...(next === undefined ? {} : { cursor: next }),
          });
          if (pages === 0) firstIds = page.items.map((j) => j.id);
          pages += 1;
          lastCursor = next;
          lastIds = page.items.map((j) => j.id);
          if (page.nextCursor === null) break;
        }
        const lastOffset = (pages - 1) * 60;
        const same = (ids: string[], offset: number) =>
          JSON.stringify(ids) ===
          JSON.stringify((like.all(...patterns, offset) as Array<{ id: string }>).map((r) => r.id));
        if (!same(firstIds, 0) || !same(lastIds, lastOffset)) throw new Error(`store and LIKE disagree on "${text}"`);
        const storeFirst = measure(200, () => store.list({ limit: 60, view: 'active', search: text }));
        const likeFirst = measure(30, () => like.all(...patterns, 0));
        const storeLast = measure(200, () =>
          store.list({
            limit: 60,
            view: 'active',
            search: text,
            ...(lastCursor === undefined ? {} : { cursor: lastCursor }),
          }),
        );
        const likeLast = measure(10, () => like.all(...patterns, lastOffset));
        searchRows.push([
          `"${text}" (${kind})`,
          `${((pages - 1) * 60 + lastIds.length).toLocaleString('en')}`,
          `${ms(storeFirst.p50)} / ${ms(storeFirst.p95)}`,
          `${ms(likeFirst.p50)} / ${ms(likeFirst.p95)}`,
          times(storeFirst, likeFirst),
          `${ms(storeLast.p50)} / ${ms(storeLast.p95)}`,
          `${ms(likeLast.p50)} / ${ms(likeLast.p95)}`,
          times(storeLast, likeLast),
        ]);
      }
      console.log(`\nAtelier store bench: ${total.toLocaleString('en')} jobs (seeded in ${seedSeconds.toFixed(1)} s)`);
    } finally {
      raw.close();
      store.close();
    }
    table('History, submit, stats', ['operation', 'p50', 'p95', 'p99', 'note'], rows);
    table(
      'Search, 60 per page (p50 / p95). First page: LIKE with LIMIT stops early. Last page: LIKE with OFFSET visits the whole table; the store continues from its cursor.',
      [
        'search',
        'matches',
        'store: 1st page',
        'LIKE+LIMIT: 1st',
        'store faster',
        'store: last page',
        'LIKE+OFFSET: last',
        'store faster',
      ],
      searchRows,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
