import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JobStore } from '../../../electron/db/types.js';
import { finished, image, open, tempDir } from './helpers.js';

/** Seeds at the edges: 0, short ones, shared prefixes, around 2^53 (the integer/digits split), up to 2^64 - 1. */
const SEEDS = [
  0,
  1,
  9,
  10,
  12,
  120,
  1234,
  12_345,
  123_456_789,
  4_294_967_295,
  900_719_925_474_099,
  Number.MAX_SAFE_INTEGER,
  '9007199254740993',
  '12345678901234567890',
  '18446744073709551615',
  7,
  70,
  77,
  700_000,
  1_200,
];

function library(): { dataDir: string; seeds: string[] } {
  const dataDir = tempDir();
  const store = open({ dataDir });
  for (const [i, seed] of SEEDS.entries()) {
    finished(store, `job ${i}`, {}, [
      { ...image(0), seed },
      { ...image(1), seed: typeof seed === 'number' ? seed + 1 : seed },
    ]);
  }
  store.close();
  return { dataDir, seeds: SEEDS.flatMap((s) => (typeof s === 'number' ? [String(s), String(s + 1)] : [s, s])) };
}

function allPages(store: JobStore, search: string): string[] {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = store.list({ limit: 3, view: 'active', search, ...(cursor === undefined ? {} : { cursor }) });
    ids.push(...page.items.flatMap((j) => j.images.map((i) => i.id)));
    if (page.nextCursor === null) return ids;
    cursor = page.nextCursor;
  }
}

describe('seed prefix and range read from the seed index', () => {
  it('finds exactly the images the clause names, whether the seed index drives the page or the history is walked', () => {
    const { dataDir } = library();
    const seedsOf = (store: JobStore) => {
      const byImage = new Map<string, string>();
      for (const job of store.list({ limit: 500, view: 'active' }).items)
        for (const im of job.images) byImage.set(im.id, im.seed === undefined ? '' : String(im.seed));
      return byImage;
    };
    const indexStore = open({ dataDir, browseSortMax: 1_000_000 });
    const bySeed = seedsOf(indexStore);
    const queries = fc.oneof(
      fc
        .constantFrom(...[...bySeed.values()].filter((s) => s !== ''))
        .chain((s) => fc.integer({ min: 1, max: s.length }).map((n) => ({ prefix: s.slice(0, n) }))),
      fc
        .tuple(fc.bigInt({ min: 0n, max: 18446744073709551615n }), fc.bigInt({ min: 0n, max: 18446744073709551615n }))
        .map(([a, b]) => ({
          from: (a < b ? a : b).toString(),
          to: (a < b ? b : a).toString(),
        })),
      fc.constantFrom(
        { from: '9007199254740990', to: '9007199254740995' },
        { from: '0', to: '12' },
        { from: '1000', to: '18446744073709551615' },
      ),
    );
    fc.assert(
      fc.property(queries, (q) => {
        const search = 'prefix' in q ? `seed:${q.prefix}*` : `seed:${q.from}-${q.to}`;
        const expected = [...bySeed]
          .filter(
            ([, seed]) =>
              seed !== '' &&
              ('prefix' in q
                ? seed.startsWith(q.prefix)
                : BigInt(seed) >= BigInt(q.from) && BigInt(seed) <= BigInt(q.to)),
          )
          .map(([id]) => id)
          .sort();
        expect([...allPages(indexStore, search)].sort(), search).toEqual(expected);
      }),
      { numRuns: 150 },
    );
    indexStore.close();
    // With the history walked instead (the driver never chosen), the same rows.
    const fixed = [
      'seed:1*',
      'seed:12*',
      'seed:0*',
      'seed:9007*',
      'seed:1844*',
      'seed:0-100',
      'seed:9007199254740990-18446744073709551615',
    ];
    const walkStore = open({ dataDir, browseSortMax: -1 });
    const walked = fixed.map((search) => allPages(walkStore, search).sort());
    walkStore.close();
    const again = open({ dataDir, browseSortMax: 1_000_000 });
    expect(fixed.map((search) => allPages(again, search).sort())).toEqual(walked);
    expect(walked.every((ids) => ids.length > 0)).toBe(true);
  });
});
