import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cellHeight,
  cellRectangle,
  clampZoom,
  fitZoom,
  columnLeft,
  gridShape,
  layoutGrid,
  moveFocus,
  pageCells,
  visibleRange,
  ZOOM,
} from '../../../../renderer/src/sweeps/grid-layout';

const HEADS = { headWidth: 100, headHeight: 40, gap: 4 };

describe('the sweep grid layout', () => {
  it('makes each row as tall as its tallest picture, at the column width', () => {
    const sizes = [
      [512, 512],
      [512, 1024],
      [1024, 512],
      [512, 512],
    ];
    const layout = layoutGrid(
      2,
      2,
      200,
      (x, y) => {
        const [width, height] = sizes[y * 2 + x]!;
        return { width: width!, height: height! };
      },
      HEADS,
    );
    expect(layout.rowHeights).toEqual([400, 200]);
    expect(layout.rowTops).toEqual([0, 404]);
    expect(layout.width).toBe(100 + 2 * 204);
    expect(layout.height).toBe(40 + 404 + 204);
    expect(columnLeft(layout, 1)).toBe(304);
  });

  it('holds a very tall or very wide picture to 1:4, and zoom to its bounds', () => {
    expect(cellHeight(100, { width: 100, height: 10_000 })).toBe(400);
    expect(cellHeight(100, { width: 10_000, height: 100 })).toBe(25);
    expect(cellHeight(100, { width: 0, height: 0 })).toBe(100);
    expect(clampZoom(1)).toBe(ZOOM.min);
    expect(clampZoom(99_999)).toBe(ZOOM.max);
  });

  it('shows every row and column that meets the viewport, whatever the sizes and scroll', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 64, max: 640 }),
        fc.nat(20_000),
        fc.nat(20_000),
        fc.integer({ min: 50, max: 2000 }),
        fc.integer({ min: 50, max: 2000 }),
        (columns, ratios, zoom, left, top, width, height) => {
          const rows = ratios.length;
          const layout = layoutGrid(columns, rows, zoom, (_, y) => ({ width: 4, height: ratios[y]! }), HEADS);
          const range = visibleRange(layout, { left, top, width, height }, 0);
          for (let y = 0; y < rows; y++) {
            const y0 = HEADS.headHeight + layout.rowTops[y]!;
            const meets = y0 + layout.rowHeights[y]! >= top && y0 <= top + height;
            if (meets) expect(y >= range.y0 && y < range.y1).toBe(true);
          }
          for (let x = 0; x < columns; x++) {
            const x0 = columnLeft(layout, x);
            const meets = x0 + zoom > left && x0 < left + width;
            if (meets) expect(x >= range.x0 && x < range.x1).toBe(true);
          }
          expect(range.x1).toBeLessThanOrEqual(columns);
          expect(range.y1).toBeLessThanOrEqual(rows);
        },
      ),
    );
  });

  it('fits a small page to the window and holds a large one at the smallest zoom', () => {
    const square = { width: 512, height: 512 };
    const zoom = fitZoom(3, 2, square, { width: 1440, height: 800 }, HEADS);
    const layout = layoutGrid(3, 2, zoom, () => square, HEADS);
    expect(layout.width).toBeLessThanOrEqual(1440);
    expect(layout.height).toBeLessThanOrEqual(800);
    expect(layoutGrid(3, 2, zoom + ZOOM.step, () => square, HEADS).height).toBeGreaterThan(800);
    expect(fitZoom(20, 20, square, { width: 1440, height: 800 }, HEADS)).toBe(ZOOM.min);
  });

  it('draws only a screenful of a 20×20 grid', () => {
    const layout = layoutGrid(20, 20, 192, () => ({ width: 1, height: 1 }), HEADS);
    const range = visibleRange(layout, { left: 0, top: 0, width: 1440, height: 800 });
    expect((range.x1 - range.x0) * (range.y1 - range.y0)).toBeLessThan(60);
  });

  it('places cells by position on their page, X and Y counted from the axes', () => {
    const shape = gridShape([
      { field: 'guidance', values: ['3', '7', '11'] },
      { field: 'steps', values: ['10', '20'] },
      { field: 'seed', values: ['1', '2'] },
    ]);
    expect(shape).toEqual({ columns: 3, rows: 2, pages: 2 });
    expect(gridShape([{ field: 'seed', values: ['1', '2'] }])).toEqual({ columns: 2, rows: 1, pages: 1 });
    const cells = [
      { x: 2, y: 1, z: 0, id: 'a' },
      { x: 0, y: 0, z: 1, id: 'b' },
      { x: 9, y: 0, z: 0, id: 'out of range' },
    ];
    const page = pageCells(cells, 3, 2, 0);
    expect(page.map((c) => c?.id ?? null)).toEqual([null, null, null, null, null, 'a']);
  });

  it('selects the rectangle between two cells and keeps arrow moves inside the page', () => {
    expect(cellRectangle(4, 0, 3)).toEqual([0, 1, 3, 4]);
    expect(moveFocus(0, 'ArrowLeft', 3, 2)).toBe(0);
    expect(moveFocus(0, 'ArrowRight', 3, 2)).toBe(1);
    expect(moveFocus(2, 'ArrowRight', 3, 2)).toBe(2);
    expect(moveFocus(1, 'ArrowDown', 3, 2)).toBe(4);
    expect(moveFocus(4, 'ArrowDown', 3, 2)).toBe(4);
    expect(moveFocus(4, 'Home', 3, 2)).toBe(0);
    expect(moveFocus(0, 'End', 3, 2)).toBe(5);
  });
});
