/**
 * Every image's 64-bit perceptual hash in memory, as two Uint32Arrays (12 bytes an image with its rowid: 12 MB at
 * a million), scanned with a branch-free popcount. Entries are only ever appended: a hash recorded again, or an image
 * purged, leaves a stale entry that the caller drops when it resolves rowids against the database.
 */
import { popcount32 } from '../../media/perceptual-hash.js';

export interface Neighbour {
  rowid: number;
  distance: number;
}

const INITIAL_CAPACITY = 1024;
/** While grouping, the clock is read every 256 entries, and the loop gets a turn once a slice has run this long. */
const GROUP_SLICE_MS = 8;

export class HashIndex {
  private hi = new Uint32Array(INITIAL_CAPACITY);
  private lo = new Uint32Array(INITIAL_CAPACITY);
  private rowids = new Float64Array(INITIAL_CAPACITY);
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(rowid: number, hi: number, lo: number): void {
    if (this.count === this.hi.length) this.grow();
    this.hi[this.count] = hi >>> 0;
    this.lo[this.count] = lo >>> 0;
    this.rowids[this.count] = rowid;
    this.count += 1;
  }

  private grow(): void {
    const capacity = this.hi.length * 2;
    const grown = <T extends Uint32Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(old);
      return next;
    };
    this.hi = grown(this.hi, (n) => new Uint32Array(n));
    this.lo = grown(this.lo, (n) => new Uint32Array(n));
    this.rowids = grown(this.rowids, (n) => new Float64Array(n));
  }

  /**
   * Entries within `maxDistance` of the hash, nearest first (ties by rowid), at most `cap` of them: one pass over
   * the arrays that files each hit under its distance, so no sort of a million entries.
   */
  within(hi: number, lo: number, maxDistance: number, cap: number): Neighbour[] {
    const h = hi >>> 0;
    const l = lo >>> 0;
    const byDistance: number[][] = Array.from({ length: maxDistance + 1 }, () => []);
    const hiArr = this.hi;
    const loArr = this.lo;
    for (let i = 0; i < this.count; i += 1) {
      const d = popcount32(hiArr[i]! ^ h) + popcount32(loArr[i]! ^ l);
      if (d <= maxDistance) byDistance[d]!.push(i);
    }
    const out: Neighbour[] = [];
    for (let d = 0; d <= maxDistance && out.length < cap; d += 1) {
      for (const i of byDistance[d]!) {
        out.push({ rowid: this.rowids[i]!, distance: d });
        if (out.length === cap) break;
      }
    }
    return out;
  }

  /**
   * Groups of entries linked by distance at most `maxDistance` (a chain of near copies is one group), as lists of
   * rowids. Candidates come from multi-index hashing: the 64 bits in four 16-bit blocks; two hashes within distance d
   * agree within `probeBits` bits on at least one block whenever d < 4 * (probeBits + 1), so with 2 every pair up
   * to 11 bits apart is found, and most pairs further apart. Each block is bucketed once with a counting sort.
   */
  groups(maxDistance: number, probeBits: 1 | 2 = 2): number[][] {
    const steps = this.grouping(maxDistance, probeBits);
    for (;;) {
      const step = steps.next();
      if (step.done === true) return step.value;
    }
  }

  /** groups(), handing the loop back every few thousand entries (a million take seconds: the loop keeps serving). */
  async groupsAsync(
    maxDistance: number,
    yieldToLoop: () => Promise<unknown>,
    probeBits: 1 | 2 = 2,
  ): Promise<number[][]> {
    const steps = this.grouping(maxDistance, probeBits);
    for (;;) {
      const step = steps.next();
      if (step.done === true) return step.value;
      await yieldToLoop();
    }
  }

  private *grouping(maxDistance: number, probeBits: 1 | 2): Generator<void, number[][]> {
    const n = this.count;
    let sliceStart = performance.now();
    // True when the current slice has run its time (the caller then yields and a new slice starts).
    const due = (i: number): boolean => {
      if ((i & 255) !== 255 || performance.now() - sliceStart < GROUP_SLICE_MS) return false;
      sliceStart = performance.now();
      return true;
    };
    const parent = new Uint32Array(n);
    for (let i = 0; i < n; i += 1) parent[i] = i;
    const find = (x: number): number => {
      let root = x;
      while (parent[root] !== root) root = parent[root]!;
      while (parent[x] !== root) {
        const next = parent[x]!;
        parent[x] = root;
        x = next;
      }
      return root;
    };
    const masks = probeMasks(probeBits);
    const order = new Uint32Array(n);
    const starts = new Uint32Array(65_537);
    const blockValue = (i: number, block: number): number =>
      block < 2 ? (this.hi[i]! >>> (block === 0 ? 16 : 0)) & 0xffff : (this.lo[i]! >>> (block === 2 ? 16 : 0)) & 0xffff;
    for (let block = 0; block < 4; block += 1) {
      starts.fill(0);
      for (let i = 0; i < n; i += 1) starts[blockValue(i, block) + 1]! += 1;
      for (let v = 1; v <= 65_536; v += 1) starts[v]! += starts[v - 1]!;
      const fill = starts.slice(0, 65_536);
      for (let i = 0; i < n; i += 1) order[fill[blockValue(i, block)]!++] = i;
      yield;
      sliceStart = performance.now();
      for (let i = 0; i < n; i += 1) {
        if (due(i)) yield;
        const value = blockValue(i, block);
        for (const mask of masks) {
          const probe = value ^ mask;
          for (let k = starts[probe]!; k < starts[probe + 1]!; k += 1) {
            const j = order[k]!;
            // Each unordered pair once per block; the union makes repeats harmless.
            if (j <= i) continue;
            const d = popcount32(this.hi[i]! ^ this.hi[j]!) + popcount32(this.lo[i]! ^ this.lo[j]!);
            if (d > maxDistance) continue;
            const a = find(i);
            const b = find(j);
            if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
          }
        }
      }
    }
    const members = new Map<number, number[]>();
    for (let i = 0; i < n; i += 1) {
      if (due(i)) yield;
      const root = find(i);
      let list = members.get(root);
      if (list === undefined) members.set(root, (list = []));
      list.push(this.rowids[i]!);
    }
    return [...members.values()].filter((list) => list.length > 1);
  }
}

/** Every 16-bit mask with at most `bits` bits set (0 included): 17 for one bit, 137 for two. */
function probeMasks(bits: number): number[] {
  const out = [0];
  for (let a = 0; a < 16; a += 1) {
    out.push(1 << a);
    if (bits >= 2) for (let b = a + 1; b < 16; b += 1) out.push((1 << a) | (1 << b));
  }
  return out;
}
