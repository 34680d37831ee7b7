/**
 * Find similar and duplicates at scale: `npm run bench -- similar [--images 100000,1000000]`.
 * For each size, seeds a library of one-image jobs whose perceptual hashes are random, with one in twenty a near copy
 * (1–10 bits away) of an earlier one, straight into the schema in one transaction. Then measures, through the real
 * store and index:
 * - loading the index lazily from the database (in slices, handing the loop back between them);
 * - `images.similar` per query (scan of every hash with popcount, resolve and filter the matches, their job summaries),
 *   against the naive way: the same scan over the hashes as BigInts (what storing them as one 64-bit value invites);
 * - `images.duplicates`: grouping the whole library (first page), and a page after that (cached groups);
 * - recording a hash as an import's thumbnail is made (UPDATE + index append).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { uuidv7 } from '../shared/ids.js';
import { openStore } from '../electron/db/store.js';
import { hashFromHalves } from '../electron/db/similar.js';
import { createSimilarIndex } from '../electron/library/similar/similar-index.js';
import { rng } from '../test/fixtures/seeded-random.js';

const u32 = (random: () => number) => Math.floor(random() * 4294967296) >>> 0;

/** Seeds `count` succeeded jobs of one image each; returns the image ids of the first 1,000 (the queries). */
function seed(path: string, count: number): string[] {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const random = rng(42);
  const job = db.prepare(
    `INSERT INTO jobs (id, status, created_at, updated_at, started_at, completed_at, provider, prompt, width, height, count,
       request_json, search_text, logical_bytes, favorite, progress_stage, partial_images)
     VALUES (?, 'succeeded', ?, ?, ?, ?, 'builtin', 'a picture', 512, 512, 1, ?, 'a picture', 300, 0, 'done', 0)`,
  );
  const image = db.prepare(
    `INSERT INTO images (id, job_id, idx, path, sha256, bytes, width, height, mime, thumb_path, phash)
     VALUES (?, ?, 0, ?, ?, 1000, 512, 512, 'image/png', ?, ?)`,
  );
  const his = new Uint32Array(count);
  const los = new Uint32Array(count);
  const queries: string[] = [];
  const request = JSON.stringify({ provider: 'builtin', prompt: 'a picture', width: 512, height: 512, count: 1 });
  db.transaction(() => {
    const start = Date.UTC(2024, 0, 1);
    for (let i = 0; i < count; i += 1) {
      let hi = u32(random);
      let lo = u32(random);
      if (i > 0 && random() < 0.05) {
        const of = Math.floor(random() * i);
        hi = his[of]!;
        lo = los[of]!;
        const flips = 1 + Math.floor(random() * 10);
        for (let f = 0; f < flips; f += 1) {
          const bit = Math.floor(random() * 64);
          if (bit < 32) hi = (hi ^ (1 << bit)) >>> 0;
          else lo = (lo ^ (1 << (bit - 32))) >>> 0;
        }
      }
      his[i] = hi;
      los[i] = lo;
      const created = start + i * 1000;
      const jobId = uuidv7(created);
      const imageId = uuidv7(created);
      const sha = `${i.toString(16).padStart(8, '0')}${'0'.repeat(56)}`;
      job.run(jobId, created, created, created, created, request);
      image.run(
        imageId,
        jobId,
        `library/${sha}.png`,
        sha,
        `thumbs/${sha}.webp`,
        BigInt.asIntN(64, BigInt(`0x${hashFromHalves(hi, lo)}`)),
      );
      if (i < 1000) queries.push(imageId);
    }
  })();
  db.close();
  return queries;
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const ms = (v: number) => `${v < 10 ? v.toFixed(2) : v.toFixed(0)} ms`;

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

/** The naive scan: every hash a BigInt, XOR and a bit count per entry (the one thing measured against the index). */
function naiveScan(hashes: bigint[], query: bigint, maxDistance: number): number {
  let found = 0;
  for (const h of hashes) {
    let x = h ^ query;
    let d = 0;
    while (x !== 0n && d <= maxDistance) {
      x &= x - 1n;
      d += 1;
    }
    if (d <= maxDistance) found += 1;
  }
  return found;
}

async function measureSize(count: number): Promise<string[][]> {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-bench-similar-'));
  try {
    openStore({ dataDir: dir }).close();
    const t0 = performance.now();
    const queries = seed(join(dir, 'atelier.db'), count);
    const seedMs = performance.now() - t0;
    const store = openStore({ dataDir: dir });
    // Every picture textured and alike in colour: the hashes alone decide, as the bench measures them.
    const index = createSimilarIndex({
      store,
      hashNow: async () => null,
      colourOf: async () => ({ r: 128, g: 128, b: 128, spread: 40 }),
    });
    const label = count.toLocaleString('en-US');

    // Lazy load: the first query pays it; the longest slice is how long the loop is held at once.
    let longest = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 0);
    const loadStart = performance.now();
    await index.similar(queries[0]!, 50);
    const loadMs = performance.now() - loadStart;
    const loadHeld = longest;

    const similar: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const start = performance.now();
      await index.similar(queries[i % queries.length]!, 50);
      similar.push(performance.now() - start);
    }

    const bigints = store.similar.hashPage(0, count).map(([, hi, lo]) => BigInt(`0x${hashFromHalves(hi, lo)}`));
    const naive: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const start = performance.now();
      naiveScan(bigints, bigints[i]!, 14);
      naive.push(performance.now() - start);
    }

    longest = 0;
    last = performance.now();
    const groupStart = performance.now();
    const first = await index.duplicates(undefined);
    const groupMs = performance.now() - groupStart;
    const groupHeld = longest;
    clearInterval(ticker);
    const pageStart = performance.now();
    await index.duplicates(first.nextCursor ?? undefined);
    const pageMs = performance.now() - pageStart;

    // Recording hashes one by one (an import's thumbnails): each an UPDATE and an append to the index.
    const ids = queries.slice(0, 500);
    const recordStart = performance.now();
    for (const id of ids) index.record(id, hashFromHalves(u32(Math.random), u32(Math.random)));
    const recordUs = ((performance.now() - recordStart) / Math.max(1, ids.length)) * 1000;
    store.close();

    const p50 = percentile(similar, 50);
    const naiveP50 = percentile(naive, 50);
    return [
      [label, 'seed (straight into the schema)', ms(seedMs), ''],
      [label, 'load the index (first query)', ms(loadMs), `loop held ≤ ${ms(loadHeld)} at once`],
      [
        label,
        'images.similar, limit 50',
        `p50 ${ms(p50)}, p95 ${ms(percentile(similar, 95))}`,
        `naive BigInt scan p50 ${ms(naiveP50)} (${(naiveP50 / p50).toFixed(0)}× slower)`,
      ],
      [
        label,
        'images.duplicates, first page (groups the library)',
        ms(groupMs),
        `loop held ≤ ${ms(groupHeld)} at once; ${first.groups.length} groups on the page`,
      ],
      [label, 'images.duplicates, next page', ms(pageMs), ''],
      [label, 'record one hash (UPDATE + index append)', `${recordUs.toFixed(0)} µs`, ''],
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(args: string[]): Promise<void> {
  const at = args.indexOf('--images');
  const sizes = (at >= 0 ? args[at + 1]! : '100000,1000000').split(',').map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1000))
    throw new Error('--images takes sizes ≥ 1000, comma-separated');
  const rows: string[][] = [];
  for (const size of sizes) rows.push(...(await measureSize(size)));
  table(
    'Find similar and duplicates (random 64-bit hashes, one in twenty a near copy of an earlier one)',
    ['images', 'operation', 'time', 'note'],
    rows,
  );
}
