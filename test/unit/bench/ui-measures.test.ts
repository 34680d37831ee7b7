import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameStats } from '../../../bench/lib/frame-stats.js';
import { pitchOf } from '../../../bench/lib/grid-geometry.js';
import { movedCards, type Box } from '../../../bench/lib/layout-shift.js';

/** The UI bench's arithmetic: what it reports is what the page did. */
describe('the UI bench measures', () => {
  const box = (x: number, y: number, w = 200, h = 150): Box => ({ x, y, w, h });

  it('counts a card as moved when its box shifts or resizes by a pixel or more, or it leaves the screen', () => {
    const before = { a: box(0, 0), b: box(210, 0), c: box(420, 0), d: box(0, 160) };
    const after = { a: box(0, 0.6), b: box(210, 1), c: box(420, 0, 201.5), e: box(0, 0) };
    expect(movedCards(before, after)).toEqual({ moved: 3, maxMovePx: Infinity });
    expect(movedCards(before, { ...after, d: box(0, 160) })).toEqual({ moved: 2, maxMovePx: 1.5 });
    expect(movedCards(before, before)).toEqual({ moved: 0, maxMovePx: 0 });
  });

  it('reads the row pitch of a justified grid from card tops, whatever the cards’ widths and rows’ heights', () => {
    // Rows 232, 260, 248 px apart, cards at sub-pixel offsets within a row.
    expect(pitchOf([10, 10.4, 10, 242, 242.2, 502, 502, 750])).toBe(248);
    expect(pitchOf([10, 10, 10.5])).toBeNull();
    fc.assert(
      fc.property(
        fc.integer({ min: 60, max: 600 }),
        fc.integer({ min: 2, max: 30 }),
        fc.integer({ min: 1, max: 8 }),
        (pitch, rows, perRow) => {
          const tops = Array.from(
            { length: rows * perRow },
            (_, k) => 37 + Math.floor(k / perRow) * pitch + (k % 3) * 0.3,
          );
          return pitchOf(tops) === pitch;
        },
      ),
    );
  });

  it('summarises frames as median, p5 and worst 1% fps, and the share dropped', () => {
    const intervals = [
      ...Array.from({ length: 95 }, () => 1000 / 60),
      ...Array.from({ length: 4 }, () => 1000 / 30),
      100,
    ];
    const s = frameStats(intervals);
    expect(s.frames).toBe(100);
    expect(s.medianFps).toBeCloseTo(60, 6);
    expect(s.p5Fps).toBeCloseTo(30, 6);
    expect(s.worst1Fps).toBeCloseTo(10, 6);
    expect(s.dropped).toBeCloseTo(0.05, 9);
  });
});
