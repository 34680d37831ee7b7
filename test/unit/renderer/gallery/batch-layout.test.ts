import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JobSummary } from '../../../../shared/contract';
import {
  BATCH_GAP,
  STRIP_INSET,
  STRIP_MAX_EDGE,
  STRIP_SPACE,
  batchLayout,
  stripLayout,
} from '../../../../renderer/src/gallery/batch-layout';
import { cardAspect, MAX_BATCH_ASPECT, MIN_ASPECT } from '../../../../renderer/src/gallery/card-aspect';

type Box = { x: number; y: number; w: number; h: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe('a batch inside its card', () => {
  it('places every image once (the ones beyond the fourth place counted by "+N"), inside the card, none overlapping', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.double({ min: 8, max: 2000, noNaN: true }),
        fc.double({ min: 8, max: 1200, noNaN: true }),
        (count, width, height) => {
          const { tiles, more } = batchLayout(count, width, height);
          // Each shown image by its index, in order, once; the "+N" place accounts for every other one.
          expect(tiles.map((t) => t.index)).toEqual(tiles.map((_, i) => i));
          expect(tiles.length + (more?.count ?? 0)).toBe(count);
          expect(tiles.length).toBe(Math.min(count, count > 4 ? 3 : 4));
          const boxes: Box[] = more === null ? tiles : [...tiles, more];
          const w = Math.round(width);
          const h = Math.round(height);
          for (const box of boxes) {
            expect(box.w).toBeGreaterThanOrEqual(1);
            expect(box.h).toBeGreaterThanOrEqual(1);
            expect(box.x).toBeGreaterThanOrEqual(0);
            expect(box.y).toBeGreaterThanOrEqual(0);
            expect(box.x + box.w).toBeLessThanOrEqual(w);
            expect(box.y + box.h).toBeLessThanOrEqual(h);
          }
          boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => expect(overlaps(a, b)).toBe(false)));
        },
      ),
    );
  });

  it('one fills the card; two or three share a row; four are two by two; beyond four the fourth place says "+N"', () => {
    expect(batchLayout(1, 200, 100).tiles).toEqual([{ index: 0, x: 0, y: 0, w: 200, h: 100 }]);
    const row = batchLayout(3, 302, 100).tiles;
    expect(row.map((t) => [t.x, t.y, t.w, t.h])).toEqual([
      [0, 0, 99, 100],
      [101, 0, 100, 100],
      [203, 0, 99, 100],
    ]);
    const four = batchLayout(4, 202, 202).tiles;
    expect(four.map((t) => [t.x, t.y])).toEqual([
      [0, 0],
      [100 + BATCH_GAP, 0],
      [0, 100 + BATCH_GAP],
      [100 + BATCH_GAP, 100 + BATCH_GAP],
    ]);
    const seven = batchLayout(7, 202, 202);
    expect(seven.tiles).toHaveLength(3);
    expect(seven.more).toEqual({ count: 4, x: 100 + BATCH_GAP, y: 100 + BATCH_GAP, w: 100, h: 100 });
  });
});

const image = (width: number, height: number, id = 'i') => ({ id, width, height }) as JobSummary['images'][number];
const job = (over: Partial<JobSummary>): JobSummary =>
  ({
    id: 'j',
    status: 'succeeded',
    width: 512,
    height: 512,
    count: 1,
    images: [],
    trashedAt: null,
    ...over,
  }) as JobSummary;

describe('a batch card’s shape', () => {
  it('a row of two or three is that many pictures wide; four keep one picture’s shape; a running batch has it already', () => {
    const squares = (n: number) => Array.from({ length: n }, (_, i) => image(512, 512, `i${i}`));
    expect(cardAspect(job({ images: squares(2) }), 'active')).toBe(2);
    expect(cardAspect(job({ images: squares(3) }), 'active')).toBe(3);
    expect(cardAspect(job({ images: squares(4) }), 'active')).toBe(1);
    expect(cardAspect(job({ images: squares(9) }), 'active')).toBe(1);
    // A running batch of three, with one picture in so far, is already three wide: finishing moves nothing.
    expect(cardAspect(job({ status: 'running', count: 3, images: squares(1) }), 'active')).toBe(3);
    expect(cardAspect(job({ status: 'running', count: 3 }), 'active')).toBe(3);
    // Three panoramas stay within bounds.
    const wide = Array.from({ length: 3 }, (_, i) => image(2048, 512, `w${i}`));
    expect(cardAspect(job({ images: wide }), 'active')).toBe(MAX_BATCH_ASPECT);
    expect(cardAspect(job({ images: [image(10, 4000)] }), 'active')).toBe(MIN_ASPECT);
  });
});

describe('an expanded batch', () => {
  it('draws every picture larger than its card, inside the strip, wrapping only when the width runs out', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 10 }),
        fc.double({ min: 0.4, max: 2.5, noNaN: true }),
        fc.integer({ min: 600, max: 3000 }),
        fc.integer({ min: 100, max: 400 }),
        (count, aspect, width, card) => {
          const s = stripLayout(count, aspect, width, card);
          const room = width - 2 * STRIP_INSET;
          expect(s.height).toBeGreaterThanOrEqual(Math.min(card, STRIP_MAX_EDGE, Math.floor(room / aspect)));
          expect(s.height).toBeLessThanOrEqual(STRIP_MAX_EDGE);
          // Each line's pictures and spaces fit the width.
          expect(s.perLine * s.width + (s.perLine - 1) * STRIP_SPACE).toBeLessThanOrEqual(room);
          expect(s.perLine * s.lines).toBeGreaterThanOrEqual(count);
          expect((s.lines - 1) * s.perLine).toBeLessThan(count);
          expect(s.total).toBe(s.lines * s.height + (s.lines - 1) * STRIP_SPACE + 2 * STRIP_INSET);
        },
      ),
    );
    // Four squares at 1000 px: one line, each well above a 180 px card.
    const four = stripLayout(4, 1, 1000, 225);
    expect([four.lines, four.perLine]).toEqual([1, 4]);
    expect(four.height).toBeGreaterThan(225);
    // Ten squares beside a 180 px card: two even lines of five, each picture larger than the card, filling the width.
    const ten = stripLayout(10, 1, 1000, 181);
    expect([ten.lines, ten.perLine]).toEqual([2, 5]);
    expect(ten.height).toBeGreaterThan(180);
    expect(5 * ten.width + 4 * STRIP_SPACE).toBeGreaterThan(1000 - 2 * STRIP_INSET - 5);
  });
});
