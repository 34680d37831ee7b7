import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../../electron/db/store.js';
import type { JobStore } from '../../../electron/db/types.js';
import { seedLibrary } from '../../../bench/lib/search-seed.js';

/**
 * Every query shape's SQL, as the store runs it, planned by SQLite: each read starts from an index (no full scan
 * of jobs or images), and a first page read from an index already in history order needs no sort. The statements
 * are captured beneath the store (better-sqlite3's Statement) with their parameters, so the plan is the one the
 * store gets for those values; each shape runs with the typed clause sorted (few rows) and walked (many rows).
 */

interface Ran {
  source: string;
  params: unknown[];
  db: Database.Database;
}

const ran: Ran[] = [];
const proto = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Record<
  'all' | 'get',
  (...a: unknown[]) => unknown
>;
const original = { all: proto.all, get: proto.get };
let capturing = false;
for (const method of ['all', 'get'] as const) {
  proto[method] = function (this: Database.Statement, ...params: unknown[]) {
    if (capturing) ran.push({ source: this.source, params, db: this.database });
    return original[method].apply(this, params);
  };
}
afterEach(() => {
  capturing = false;
});

// Plans are checked twice: with no statistics (a library never analysed) and with sqlite_stat1 and stat4 filled by
// ANALYZE (as PRAGMA optimize on close leaves them), since either may steer SQLite's choices where the store leaves
// them to it.
const dirs = { fresh: '', analysed: '' };
const PARENT = '0190a6e2-0000-7000-8000-00000000abcd';
beforeAll(() => {
  for (const kind of ['fresh', 'analysed'] as const) {
    const dataDir = (dirs[kind] = mkdtempSync(join(tmpdir(), 'atelier-plans-')));
    openStore({ dataDir }).close();
    seedLibrary(join(dataDir, 'atelier.db'), 3_000, Date.now());
    // One job in 50 made from an image (lineage, migration 13), for from: and is:derived.
    statistics(dataDir, `UPDATE jobs SET operation = 'img2img', parent_image_id = '${PARENT}' WHERE rowid % 50 = 0`);
    if (kind === 'analysed') statistics(dataDir, 'ANALYZE');
  }
}, 60_000);

function statistics(dataDir: string, sql: string): void {
  const db = new Database(join(dataDir, 'atelier.db'));
  db.exec(sql);
  db.close();
}
afterAll(() => {
  for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
});

/**
 * The EXPLAIN QUERY PLAN lines of every page read and driver count one list() call ran, with the store tuned to
 * sort a typed clause's rows up to `sortMax` (past it: walk).
 */
function plansOf(
  kind: keyof typeof dirs,
  search: string,
  sortMax: number,
  pages = 1,
): Array<{ sql: string; plan: string[] }> {
  const dataDir = dirs[kind];
  // The store's PRAGMA optimize on close may have analysed the fresh library: forget it again.
  if (kind === 'fresh') statistics(dataDir, 'DROP TABLE IF EXISTS sqlite_stat1; DROP TABLE IF EXISTS sqlite_stat4');
  const store: JobStore = openStore({ dataDir, browseSortMax: sortMax });
  try {
    // Only the last page's reads are planned (a deep page reads from its cursor).
    let cursor: string | undefined;
    for (let p = 1; p < pages; p += 1)
      cursor = store.list({ limit: 60, view: 'active', search }).nextCursor ?? undefined;
    ran.splice(0);
    capturing = true;
    const page = store.list({ limit: 60, view: 'active', search, ...(cursor !== undefined && { cursor }) });
    capturing = false;
    expect(page.items.length).toBeGreaterThan(0);
    const reads = ran.filter((r) =>
      /FROM (jobs|jobs_grams|image_tags|board_images) AS (j|g|d)\b|^SELECT COUNT\(\*\) AS n FROM \(/.test(r.source),
    );
    expect(reads.length).toBeGreaterThan(0);
    return reads.map((r) => ({
      sql: r.source,
      plan: (r.db.prepare(`EXPLAIN QUERY PLAN ${r.source}`).all(...r.params) as Array<{ detail: string }>).map(
        (row) => row.detail,
      ),
    }));
  } finally {
    capturing = false;
    store.close();
  }
}

/**
 * A read of a whole table without an index ("SCAN j", "SCAN i"); index scans and virtual tables are fine, and so is
 * the scan of `page`, the page's own rowids sorted by a subquery (a page at most), or of `s`, a few matching jobs sorted.
 */
const fullScan = (line: string) => /^SCAN \w+$/.test(line) && line !== 'SCAN page' && line !== 'SCAN s';
const pageRead = (sql: string) => /LIMIT \?\s*$/.test(sql.trim()) && !sql.startsWith('SELECT COUNT');

const SHAPES: Array<{ query: string; walkOrdered: boolean }> = [
  { query: 'model:juggernaut', walkOrdered: true },
  { query: 'sampler:ddim', walkOrdered: true },
  { query: 'scheduler:karras', walkOrdered: true },
  { query: 'lora:add_detail', walkOrdered: true },
  { query: 'seed:12*', walkOrdered: true },
  { query: 'seed:1000000-900000000', walkOrdered: true },
  { query: 'steps:20', walkOrdered: true },
  { query: 'steps:20-30', walkOrdered: true },
  { query: 'cfg:>=7', walkOrdered: true },
  { query: 'size:1024x1024', walkOrdered: true },
  { query: 'w:>=1024', walkOrdered: true },
  { query: 'h:<768', walkOrdered: true },
  { query: 'ratio:portrait', walkOrdered: true },
  { query: 'ratio:16:9', walkOrdered: true },
  { query: 'rating:>=4', walkOrdered: true },
  { query: 'tag:keeper', walkOrdered: true },
  { query: 'board:"cover ideas"', walkOrdered: true },
  { query: 'is:favorite', walkOrdered: true },
  { query: 'date:7d', walkOrdered: true },
  { query: 'source:comfyui', walkOrdered: true },
  { query: 'provider:openai', walkOrdered: true },
  { query: `from:${PARENT}`, walkOrdered: true },
  { query: 'is:derived', walkOrdered: false },
  { query: 'lighthouse model:juggernaut rating:>=1', walkOrdered: false },
  { query: 'lighthouse', walkOrdered: false },
  { query: '"oil painting"', walkOrdered: false },
];

describe.each(['fresh', 'analysed'] as const)('query plans (%s statistics)', (kind) => {
  for (const { query, walkOrdered } of SHAPES) {
    it(`${query}: every read starts from an index, sorted only when few rows`, () => {
      // Sorted: the clause's own rows through its index, however many (the planner's choice for a small clause).
      for (const plan of plansOf(kind, query, 1_000_000)) {
        expect(plan.plan.filter(fullScan), `${plan.sql}\n${plan.plan.join('\n')}`).toEqual([]);
      }
      // Walked: the history (or the clause's ordered index) newest first, stopping at the page, never sorting it.
      for (const plan of plansOf(kind, query, -1)) {
        expect(plan.plan.filter(fullScan), `${plan.sql}\n${plan.plan.join('\n')}`).toEqual([]);
        if (walkOrdered && pageRead(plan.sql)) {
          expect(
            plan.plan.filter((l) => l.includes('USE TEMP B-TREE FOR ORDER BY')),
            `${plan.sql}\n${plan.plan.join('\n')}`,
          ).toEqual([]);
        }
      }
    });
  }
});

describe('lineage reads', () => {
  it('from: reads the jobs made from one image through their own index, not a walk of the history', () => {
    for (const kind of ['fresh', 'analysed'] as const) {
      const plans = plansOf(kind, `from:${PARENT}`, 1_000_000);
      expect(
        plans.flatMap((p) => p.plan).some((line) => line.includes('jobs_parent_created')),
        JSON.stringify(plans),
      ).toBe(true);
    }
  });
});

describe('tag and board reads', () => {
  it('tag: and board: read their own index newest first (migration 0022): no sort, first page or deep', () => {
    for (const kind of ['fresh', 'analysed'] as const) {
      for (const [query, index] of [
        ['tag:keeper', 'image_tags_tag_created'],
        ['board:"cover ideas"', 'board_images_board_created'],
      ] as const) {
        for (const sortMax of [1_000_000, -1]) {
          for (const pages of [1, 3]) {
            const plans = plansOf(kind, query, sortMax, pages).filter((p) => pageRead(p.sql));
            const said = JSON.stringify(plans, null, 1);
            expect(plans.length, said).toBeGreaterThan(0);
            for (const { plan } of plans) {
              expect(
                plan.some((line) => line.startsWith(`SEARCH d USING COVERING INDEX ${index} (`)),
                said,
              ).toBe(true);
              expect(
                plan.filter((line) => line.includes('TEMP B-TREE')),
                said,
              ).toEqual([]);
            }
          }
        }
      }
    }
  });
});

describe('seed range reads', () => {
  it('seed: lists its jobs from images_seed_job alone (migration 0023), sorts them once, then checks their images', () => {
    for (const kind of ['fresh', 'analysed'] as const) {
      const plans = plansOf(kind, 'seed:1000000-900000000', 1_000_000).filter((p) => pageRead(p.sql));
      const said = JSON.stringify(plans, null, 1);
      expect(plans.length, said).toBe(1);
      const plan = plans[0]!.plan;
      expect(plan, said).toContain('SEARCH i USING COVERING INDEX images_seed_job (seed>? AND seed<?)');
      expect(plan.filter((line) => line.includes('TEMP B-TREE')).length, said).toBe(1);
      // The image check comes after the sort: while reading the sorted list, not while building it.
      const exists = plan.findIndex((line) => line.startsWith('SEARCH i EXISTS'));
      expect(exists, said).toBeGreaterThan(plan.indexOf('SCAN s'));
      expect(plan.indexOf('SCAN s'), said).toBeGreaterThan(plan.findIndex((l) => l.includes('TEMP B-TREE')));
    }
  });
});
