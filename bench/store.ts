/**
 * The job store at scale: `npm run bench -- store [--jobs 100000|1000000]`.
 * Seeds a synthetic history in one transaction, then measures submit throughput, history pages (cursor vs OFFSET),
 * search (trigram FTS vs a LIKE scan as the reference store did it) and stats.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { uuidv7 } from '../shared/ids.js';
import { openStore } from '../electron/db/store.js';
import { searchTextOf } from '../electron/db/fold.js';
import type { JobStore } from '../electron/db/types.js';

const SUBJECTS = ['fox', 'lighthouse', 'teapot', 'castle', 'robot', 'forest', 'dragon', 'portrait', 'city', 'garden', 'ship', 'owl', 'mountain', 'cat', 'river', 'tower', 'červená liška', 'Ελληνικός ναός', '東京の夜'];
const STYLES = ['watercolor', 'oil painting', 'pixel art', 'photograph', 'ink sketch', 'isometric', 'low poly', 'charcoal', 'studio lighting', 'cinematic'];
const MOODS = ['at dawn', 'in the rain', 'under neon lights', 'in winter', 'at golden hour', 'in fog', 'at night', 'in spring'];
const RARE = ['quetzalcoatl', 'zeppelin', 'marzipan', 'obsidian', 'kaleidoscope'];
const PROVIDERS = ['builtin', 'openai', 'a1111', 'comfyui'];
const STATUSES = ['succeeded', 'succeeded', 'succeeded', 'succeeded', 'failed', 'cancelled', 'interrupted'];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
      insert.run(uuidv7(created), pick(random, STATUSES), created, created + 900, created + 10, created + 900, provider, text,
        request, searchTextOf(text, null), request.length + 256, random() < 0.05 ? 1 : 0);
    }
  });
  tx();
  db.close();
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function measure(times: number, fn: (i: number) => void): { p50: number; p95: number } {
  for (let i = 0; i < 3; i += 1) fn(i); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const t0 = performance.now();
    fn(i);
    samples.push(performance.now() - t0);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

const ms = (v: number) => `${v < 10 ? v.toFixed(3) : v.toFixed(1)} ms`;

export function run(args: string[]): void {
  const jobsArg = args.indexOf('--jobs');
  const total = jobsArg >= 0 ? Number(args[jobsArg + 1]) : 100_000;
  if (!Number.isInteger(total) || total < 1000) throw new Error('--jobs must be a whole number ≥ 1000');
  const deep = Math.min(50_000, Math.floor(total / 2));
  const dir = mkdtempSync(join(tmpdir(), 'atelier-bench-store-'));
  const rows: Array<[string, string, string, string]> = [];
  try {
    // Real submit() throughput on a fresh library, with the store's durability (WAL + synchronous=NORMAL).
    const submitDir = join(dir, 'submit');
    const submitStore = openStore({ dataDir: submitDir, limits: { maxPendingJobs: 1_000_000 } });
    const random = rng(7);
    const n = 5_000;
    const t0 = performance.now();
    for (let i = 0; i < n; i += 1) {
      submitStore.submit({ provider: 'builtin', prompt: prompt(random), width: 512, height: 512, count: 1, idempotencyKey: `k${i}` });
    }
    const submitSeconds = (performance.now() - t0) / 1000;
    submitStore.close();
    rows.push(['submit() throughput (WAL, synchronous=NORMAL, idempotency key)', `${Math.round(n / submitSeconds).toLocaleString('en')} jobs/s`, `${n} submits`, '']);

    const libDir = join(dir, 'library');
    openStore({ dataDir: libDir }).close();
    const seedStart = performance.now();
    seed(join(libDir, 'atelier.db'), total, Date.UTC(2024, 0, 1));
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const store: JobStore = openStore({ dataDir: libDir });
    const raw = new Database(join(libDir, 'atelier.db'), { readonly: true });
    raw.pragma('analysis_limit = 400');
    try {
      const offsetPage = raw.prepare(
        'SELECT id, prompt FROM jobs WHERE trashed_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 60 OFFSET ?',
      );
      const like = raw.prepare(
        `SELECT id, prompt FROM jobs WHERE trashed_at IS NULL AND lower(prompt) LIKE ? ESCAPE '\\'
         ORDER BY created_at DESC, id DESC LIMIT 60`,
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
      const first = measure(200, () => store.list({ limit: 60, view: 'active' }));
      const firstOffset = measure(200, () => offsetPage.all(0));
      const deepCursor = measure(200, () => store.list({ limit: 60, view: 'active', cursor: cursor! }));
      const deepOffset = measure(50, () => offsetPage.all(deep));
      rows.push(['first page (60): cursor', `p50 ${ms(first.p50)}`, `p95 ${ms(first.p95)}`, '']);
      rows.push(['first page (60): OFFSET 0', `p50 ${ms(firstOffset.p50)}`, `p95 ${ms(firstOffset.p95)}`, '']);
      rows.push([`page ${deep.toLocaleString('en')} deep: cursor`, `p50 ${ms(deepCursor.p50)}`, `p95 ${ms(deepCursor.p95)}`, `${(deepOffset.p50 / deepCursor.p50).toFixed(0)}× faster than OFFSET`]);
      rows.push([`page ${deep.toLocaleString('en')} deep: OFFSET`, `p50 ${ms(deepOffset.p50)}`, `p95 ${ms(deepOffset.p95)}`, '']);
      const fav = measure(200, () => store.list({ limit: 60, view: 'active', favorite: true }));
      rows.push(['first page, favorites only', `p50 ${ms(fav.p50)}`, `p95 ${ms(fav.p95)}`, '']);
      const status = measure(200, () => store.list({ limit: 60, view: 'active', status: ['failed'], provider: 'openai' }));
      rows.push(['first page, status=failed + provider', `p50 ${ms(status.p50)}`, `p95 ${ms(status.p95)}`, '']);

      const searches: Array<[string, string]> = [
        ['common', 'watercolor'],
        ['common, 2 terms', 'lighthouse fog'],
        ['rare', 'quetzalcoatl'],
        ['rare', 'marzipan'],
        ['non-Latin, any case', 'ČERVENÁ'],
        ['absent', 'xylophone'],
        ['1–2 chars', 'ow'],
      ];
      for (const [kind, term] of searches) {
        const fts = measure(100, () => store.list({ limit: 60, view: 'active', search: term }));
        const pattern = `%${term.toLowerCase()}%`;
        const scan = measure(20, () => like.all(pattern));
        const mode = store.list({ limit: 1, view: 'active', search: term });
        void mode;
        rows.push([`search "${term}" (${kind}): store`, `p50 ${ms(fts.p50)}`, `p95 ${ms(fts.p95)}`, `${(scan.p50 / fts.p50).toFixed(0)}× faster than LIKE`]);
        rows.push([`search "${term}" (${kind}): LIKE '%term%' scan`, `p50 ${ms(scan.p50)}`, `p95 ${ms(scan.p95)}`, '']);
      }
      const stats = measure(20, () => store.stats());
      rows.push(['stats()', `p50 ${ms(stats.p50)}`, `p95 ${ms(stats.p95)}`, '']);
      console.log(`\nAtelier store bench: ${total.toLocaleString('en')} jobs (seeded in ${seedSeconds.toFixed(1)} s)\n`);
    } finally {
      raw.close();
      store.close();
    }
    const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
    for (const row of rows) console.log(row.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
