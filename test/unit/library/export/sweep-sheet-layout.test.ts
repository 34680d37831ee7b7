/** The sheet's layout: X across, Y down, boxes at the cells' aspect, never past the size cap. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CELL_LONG_SIDE,
  MAX_SHEET_PIXELS,
  MAX_SHEET_SIDE,
  layoutSheet,
  type Rect,
} from '../../../../electron/library/export/sweep-sheet-layout.js';

const inside = (r: Rect, w: number, h: number): boolean =>
  r.left >= 0 && r.top >= 0 && r.left + r.width <= w && r.top + r.height <= h;
const overlap = (a: Rect, b: Rect): boolean =>
  a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;

describe('layoutSheet', () => {
  it('puts X values across and Y values down, headers above and left of the cells', () => {
    const l = layoutSheet({ columns: 3, rows: 2, aspect: 1.5, yAxis: true });
    expect(l.cells).toHaveLength(2);
    expect(l.cells[0]).toHaveLength(3);
    const [a, b] = l.cells[0]!;
    expect(b!.left).toBeGreaterThan(a!.left);
    expect(l.cells[1]![0]!.top).toBeGreaterThan(a!.top);
    expect(a!.width).toBe(CELL_LONG_SIDE);
    expect(a!.height).toBe(Math.round(CELL_LONG_SIDE / 1.5));
    l.xHeaders.forEach((h, x) => {
      expect(h.left).toBe(l.cells[0]![x]!.left);
      expect(h.top + h.height).toBeLessThanOrEqual(a!.top);
    });
    l.yHeaders.forEach((h, y) => {
      expect(h.top).toBe(l.cells[y]![0]!.top);
      expect(h.left + h.width).toBeLessThanOrEqual(a!.left);
    });
    expect(l.title.top + l.title.height).toBeLessThanOrEqual(l.settings.top);
    expect(l.settings.top + l.settings.height).toBeLessThanOrEqual(l.xField.top);
  });

  it('gives a one-axis sweep no Y column, and never upscales small pictures past their size', () => {
    const l = layoutSheet({ columns: 4, rows: 1, aspect: 1, longestSide: 128, yAxis: false });
    expect(l.yField.width).toBe(0);
    expect(l.cells[0]![0]!.width).toBe(128);
  });

  it('widens the Y column for a long Y label, within bounds', () => {
    const narrow = layoutSheet({ columns: 2, rows: 2, aspect: 1, yAxis: true, yLabelEm: 3 });
    const wide = layoutSheet({ columns: 2, rows: 2, aspect: 1, yAxis: true, yLabelEm: 16 });
    const huge = layoutSheet({ columns: 2, rows: 2, aspect: 1, yAxis: true, yLabelEm: 10_000 });
    expect(wide.yField.width).toBeGreaterThan(narrow.yField.width);
    expect(huge.yField.width).toBeLessThanOrEqual(20 * huge.font);
  });

  it('fits any grid of up to 500 cells within the cap, every box inside the sheet and apart from the others', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }).chain((columns) =>
          fc.record({
            columns: fc.constant(columns),
            rows: fc.integer({ min: 1, max: Math.max(1, Math.floor(500 / columns)) }),
            aspect: fc.oneof(fc.double({ min: 0.05, max: 20, noNaN: true }), fc.constantFrom(0, -1, Infinity, NaN)),
            longestSide: fc.option(fc.integer({ min: 1, max: 8_192 }), { nil: undefined }),
            yAxis: fc.boolean(),
            yLabelEm: fc.option(fc.double({ min: 0, max: 5_000, noNaN: true }), { nil: undefined }),
          }),
        ),
        (input) => {
          const l = layoutSheet(input);
          expect(l.width).toBeLessThanOrEqual(MAX_SHEET_SIDE);
          expect(l.height).toBeLessThanOrEqual(MAX_SHEET_SIDE);
          expect(l.width * l.height).toBeLessThanOrEqual(MAX_SHEET_PIXELS);
          expect(l.cells.flat()).toHaveLength(input.columns * input.rows);
          const bad: string[] = [];
          // Rows and columns are regular: a box apart from its right and lower neighbours is apart from all.
          l.cells.forEach((row, y) =>
            row.forEach((c, x) => {
              if (!inside(c, l.width, l.height) || c.width <= 0) bad.push(`cell ${x},${y} outside`);
              const right = row[x + 1];
              const below = l.cells[y + 1]?.[x];
              if (right !== undefined && overlap(c, right)) bad.push(`cell ${x},${y} overlaps its right`);
              if (below !== undefined && overlap(c, below)) bad.push(`cell ${x},${y} overlaps below`);
            }),
          );
          for (const h of [...l.xHeaders, ...l.yHeaders, l.title, l.settings])
            if (!inside(h, l.width, l.height)) bad.push('a label outside');
          expect(bad).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
