import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../../electron/db/store.js';
import type { JobStore, StoreOptions } from '../../../electron/db/types.js';
import { seedLibrary } from '../../../bench/lib/search-seed.js';

/**
 * Whatever plan a query gets, it returns the same rows in the same order: the same library opened with tunings that
 * force each path (sort the smallest clause's rows, walk the history, read the gram index newest first, sort its
 * matches) pages through identical results for random combinations of words and typed clauses.
 */
const TUNINGS: Array<Partial<StoreOptions>> = [
  // The reference: typed clauses never sorted, search walks the history from the start.
  { browseSortMax: -1, searchWalkBudget: 1_000_000, denseSearchThreshold: 0 },
  {},
  { browseSortMax: 1_000_000, searchWalkBudget: 0, denseSearchThreshold: 1_000_000 },
  { browseSortMax: 40, searchWalkBudget: 3, denseSearchThreshold: 1 },
];

const CLAUSES = [
  'lighthouse',
  'owl',
  'fox',
  '"oil painting"',
  'quetzalcoatl',
  'model:juggernaut',
  'model:flux1',
  'model:photon',
  'sampler:euler',
  'scheduler:karras',
  'lora:add_detail',
  'lora:ghibli',
  'lora:hands_fix_v5',
  'rating:>=4',
  'rating:5',
  'tag:keeper',
  'tag:wip',
  'tag:mood-3',
  'board:textures',
  'seed:1*',
  'seed:12*',
  'seed:100000000-2000000000',
  'steps:20-30',
  'steps:13',
  'h:1344',
  'h:<768',
  'is:favorite',
  'cfg:>=7',
  'size:1024x1024',
  'date:7d',
  '-owl',
  'source:comfyui',
  'ratio:16:9',
  'ratio:21:9',
  'ratio:portrait',
  '-ratio:16:9',
  'lora:pixel',
  '-lora:ghibli',
  'model:nosuchmodel',
  '-model:nosuchmodel',
];

const root = mkdtempSync(join(tmpdir(), 'atelier-plan-eq-'));
const stores: JobStore[] = [];

beforeAll(() => {
  const seeded = join(root, 'seeded');
  openStore({ dataDir: seeded }).close();
  seedLibrary(join(seeded, 'atelier.db'), 2_500, Date.now());
  TUNINGS.forEach((tuning, i) => {
    const dir = join(root, `t${i}`);
    mkdirSync(dir);
    copyFileSync(join(seeded, 'atelier.db'), join(dir, 'atelier.db'));
    stores.push(openStore({ dataDir: dir, ...tuning }));
  });
}, 60_000);

afterAll(() => {
  for (const store of stores) store.close();
  rmSync(root, { recursive: true, force: true });
});

function pages(store: JobStore, search: string): string[] {
  const out: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = store.list({ limit: 40, view: 'active', search, ...(cursor === undefined ? {} : { cursor }) });
    out.push(...page.items.map((j) => `${j.id}:${j.images.map((i) => i.id).join(',')}`));
    if (page.nextCursor === null) return out;
    cursor = page.nextCursor;
  }
}

describe('plan equivalence', () => {
  it('every tuning pages through the same jobs and images for any mix of words and typed clauses', () => {
    let nonEmpty = 0;
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom(...CLAUSES), { minLength: 1, maxLength: 3 }), (clauses) => {
        const search = clauses.join(' ');
        const [reference, ...others] = stores.map((store) => pages(store, search));
        if (reference!.length > 0) nonEmpty += 1;
        for (const other of others) expect(other, search).toEqual(reference);
      }),
      { numRuns: 120 },
    );
    // The mixes mostly match something, so the comparison is of real pages, not of empty lists.
    expect(nonEmpty).toBeGreaterThan(60);
  });

  it('ratio: names the sizes the library holds, finding exactly the jobs the ratio condition holds for', () => {
    const raw = new Database(join(root, 'seeded', 'atelier.db'), { readonly: true });
    try {
      for (const [w, h] of [
        [16, 9],
        [9, 16],
        [4, 3],
        [3, 2],
        [21, 9],
        [1, 1],
        [12, 5],
        [13, 19],
      ] as const) {
        const expected = raw
          .prepare(
            `SELECT id FROM jobs WHERE trashed_at IS NULL AND abs(width * ? - height * ?) <= 0.01 * height * ? ORDER BY created_at DESC, id DESC`,
          )
          .pluck()
          .all(h, w, w) as string[];
        const found = pages(stores[1]!, `ratio:${w}:${h}`).map((entry) => entry.split(':')[0]);
        expect(found, `${w}:${h}`).toEqual(expected);
      }
    } finally {
      raw.close();
    }
  });
});
