import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hammingDistance } from '../../../../electron/media/perceptual-hash.js';
import { hashFromHalves } from '../../../../electron/db/similar.js';
import { HashIndex } from '../../../../electron/library/similar/hash-index.js';

const u32 = fc.integer({ min: 0, max: 0xffffffff });
/** Hashes drawn near a few centres, so that groups and near neighbours really occur. */
const clustered = fc
  .tuple(
    fc.array(fc.tuple(u32, u32), { minLength: 1, maxLength: 4 }),
    fc.array(fc.tuple(fc.nat(3), fc.array(fc.nat(63), { maxLength: 10 })), { minLength: 2, maxLength: 40 }),
  )
  .map(([centres, members]) =>
    members.map(([c, flips]) => {
      let [hi, lo] = centres[c % centres.length]!;
      for (const bit of flips) {
        if (bit < 32) hi = (hi ^ (1 << bit)) >>> 0;
        else lo = (lo ^ (1 << (bit - 32))) >>> 0;
      }
      return [hi, lo] as [number, number];
    }),
  );

function build(hashes: Array<[number, number]>): HashIndex {
  const index = new HashIndex();
  hashes.forEach(([hi, lo], i) => index.add(i + 1, hi, lo));
  return index;
}

const hex = ([hi, lo]: [number, number]) => hashFromHalves(hi, lo);

describe('the in-memory hash index', () => {
  it('within() returns exactly the entries a naive filter finds, nearest first, ties by insertion', () => {
    fc.assert(
      fc.property(clustered, fc.nat(20), (hashes, radius) => {
        const [query] = hashes;
        const naive = hashes
          .map((h, i) => ({ rowid: i + 1, distance: hammingDistance(hex(query!), hex(h)) }))
          .filter((n) => n.distance <= radius)
          .sort((a, b) => a.distance - b.distance || a.rowid - b.rowid);
        expect(build(hashes).within(query![0], query![1], radius, 1000)).toEqual(naive);
      }),
    );
  });

  it('within() stops at the cap, keeping the nearest', () => {
    const index = build([
      [0, 0],
      [0, 1],
      [0, 3],
      [0, 7],
    ]);
    expect(index.within(0, 0, 64, 2)).toEqual([
      { rowid: 1, distance: 0 },
      { rowid: 2, distance: 1 },
    ]);
  });

  it('groups() links exactly the entries a naive all-pairs union links, for any distance multi-index hashing guarantees', () => {
    fc.assert(
      fc.property(clustered, fc.integer({ min: 0, max: 11 }), (hashes, maxDistance) => {
        // Naive: union every pair within the distance.
        const parent = hashes.map((_, i) => i);
        const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x]!)));
        for (let i = 0; i < hashes.length; i += 1) {
          for (let j = i + 1; j < hashes.length; j += 1) {
            if (hammingDistance(hex(hashes[i]!), hex(hashes[j]!)) <= maxDistance) parent[find(j)] = find(i);
          }
        }
        const expected = new Map<number, number[]>();
        hashes.forEach((_, i) => {
          const list = expected.get(find(i)) ?? [];
          list.push(i + 1);
          expected.set(find(i), list);
        });
        const norm = (groups: number[][]) =>
          groups.map((g) => [...g].sort((a, b) => a - b)).sort((a, b) => a[0]! - b[0]!);
        expect(norm(build(hashes).groups(maxDistance))).toEqual(
          norm([...expected.values()].filter((g) => g.length > 1)),
        );
      }),
    );
  });

  it('groupsAsync() hands the loop back while it works on a large index, and answers as groups() does', async () => {
    const index = new HashIndex();
    for (let i = 0; i < 20_000; i += 1)
      index.add(i + 1, Math.imul(i, 2654435761) >>> 0, Math.imul(i ^ 0x5bd1e995, 2246822519) >>> 0);
    index.add(20_001, 0xdeadbeef, 0x12345678);
    index.add(20_002, 0xdeadbeef, 0x12345679);
    let turns = 0;
    const groups = await index.groupsAsync(6, async () => {
      turns += 1;
    });
    expect(turns).toBeGreaterThan(4);
    expect(groups).toEqual(index.groups(6));
    expect(groups).toContainEqual([20_001, 20_002]);
  });
});
