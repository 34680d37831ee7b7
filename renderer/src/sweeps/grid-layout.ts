import type { JobSummary, SweepAxisView, SweepCell } from '../../../shared/contract';

/** The grid's geometry at one zoom: columns of one width, each row as tall as its tallest picture. */
export interface GridLayout {
  /** Width of the Y header column and height of the X header row, in px. */
  headWidth: number;
  headHeight: number;
  columnWidth: number;
  gap: number;
  /** Each row's top (from the cells' origin, under the X headers) and height. */
  rowTops: number[];
  rowHeights: number[];
  /** The whole canvas, headers included. */
  width: number;
  height: number;
}

/** Zoom is a cell's width in px: from a glance at a 20×20 grid to one cell filling a laptop screen. */
export const ZOOM = { min: 64, max: 640, step: 32 } as const;

export function clampZoom(width: number): number {
  return Math.min(ZOOM.max, Math.max(ZOOM.min, Math.round(width)));
}

/** A picture's height for the column's width; an aspect past 1:4 either way is held there, so no row runs away. */
export function cellHeight(columnWidth: number, aspect: { width: number; height: number }): number {
  const ratio = aspect.width > 0 && aspect.height > 0 ? aspect.height / aspect.width : 1;
  return Math.round(columnWidth * Math.min(4, Math.max(0.25, ratio)));
}

/** The size a cell's picture has or will have: its first image's, else what its job asked for, else the base's. */
export function cellAspect(
  job: Pick<JobSummary, 'width' | 'height' | 'images'> | null | undefined,
  base: { width: number; height: number },
): { width: number; height: number } {
  const image = job?.images[0];
  if (image !== undefined) return image;
  return job ?? base;
}

/** Lays out one page (X columns × Y rows) of cells; `aspectAt(x, y)` gives each cell's picture size. */
export function layoutGrid(
  columns: number,
  rows: number,
  columnWidth: number,
  aspectAt: (x: number, y: number) => { width: number; height: number },
  heads: { headWidth: number; headHeight: number; gap: number },
): GridLayout {
  const rowTops: number[] = [];
  const rowHeights: number[] = [];
  let top = 0;
  for (let y = 0; y < rows; y++) {
    let tallest = 0;
    for (let x = 0; x < columns; x++) tallest = Math.max(tallest, cellHeight(columnWidth, aspectAt(x, y)));
    rowTops.push(top);
    rowHeights.push(tallest);
    top += tallest + heads.gap;
  }
  return {
    ...heads,
    columnWidth,
    rowTops,
    rowHeights,
    width: heads.headWidth + columns * (columnWidth + heads.gap),
    height: heads.headHeight + top,
  };
}

export function columnLeft(layout: GridLayout, x: number): number {
  return layout.headWidth + x * (layout.columnWidth + layout.gap);
}

/** The rows and columns a viewport (scroll offset and size) shows, with `overscan` more on each side; ends exclusive. */
export function visibleRange(
  layout: GridLayout,
  viewport: { left: number; top: number; width: number; height: number },
  overscan = 1,
): { x0: number; x1: number; y0: number; y1: number } {
  const columns = Math.round((layout.width - layout.headWidth) / (layout.columnWidth + layout.gap));
  const pitch = layout.columnWidth + layout.gap;
  const x0 = Math.min(columns, Math.max(0, Math.floor((viewport.left - layout.headWidth) / pitch) - overscan));
  const x1 = Math.min(columns, Math.ceil((viewport.left + viewport.width - layout.headWidth) / pitch) + overscan);
  const rows = layout.rowTops.length;
  const from = viewport.top - layout.headHeight;
  const to = from + viewport.height;
  // The first row whose bottom is below the viewport's top, by binary search: rows grow with their pictures.
  let lo = 0;
  let hi = rows;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (layout.rowTops[mid]! + layout.rowHeights[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < rows && layout.rowTops[end]! <= to) end++;
  return { x0, x1: Math.max(x0, x1), y0: Math.max(0, lo - overscan), y1: Math.min(rows, end + overscan) };
}

/** How many values each axis took: X and Y are 1 when absent, Z the number of pages. */
export function gridShape(axes: readonly SweepAxisView[]): { columns: number; rows: number; pages: number } {
  return {
    columns: Math.max(1, axes[0]?.values.length ?? 1),
    rows: Math.max(1, axes[1]?.values.length ?? 1),
    pages: Math.max(1, axes[2]?.values.length ?? 1),
  };
}

/** One page's cells by position: `at[y * columns + x]`, null where the sweep holds none. */
export function pageCells<C extends Pick<SweepCell, 'x' | 'y' | 'z'>>(
  cells: readonly C[],
  columns: number,
  rows: number,
  z: number,
): (C | null)[] {
  const at: (C | null)[] = Array.from({ length: columns * rows }, () => null);
  for (const cell of cells) {
    if (cell.z !== z || cell.x >= columns || cell.y >= rows) continue;
    at[cell.y * columns + cell.x] = cell;
  }
  return at;
}

/** A rectangle of cells from one corner to the other (shift+click), as indexes of the page. */
export function cellRectangle(from: number, to: number, columns: number): number[] {
  const [ax, ay] = [from % columns, Math.floor(from / columns)];
  const [bx, by] = [to % columns, Math.floor(to / columns)];
  const out: number[] = [];
  for (let y = Math.min(ay, by); y <= Math.max(ay, by); y++)
    for (let x = Math.min(ax, bx); x <= Math.max(ax, bx); x++) out.push(y * columns + x);
  return out;
}

/** The cell an arrow key moves to, held inside the page. */
export function moveFocus(index: number, key: string, columns: number, rows: number): number {
  const x = index % columns;
  const y = Math.floor(index / columns);
  if (key === 'ArrowLeft') return y * columns + Math.max(0, x - 1);
  if (key === 'ArrowRight') return y * columns + Math.min(columns - 1, x + 1);
  if (key === 'ArrowUp') return Math.max(0, y - 1) * columns + x;
  if (key === 'ArrowDown') return Math.min(rows - 1, y + 1) * columns + x;
  if (key === 'Home') return 0;
  if (key === 'End') return columns * rows - 1;
  return index;
}

/** The zoom at which the whole page fits the window (cells of the base's aspect), within the zoom's bounds. */
export function fitZoom(
  columns: number,
  rows: number,
  aspect: { width: number; height: number },
  viewport: { width: number; height: number },
  heads: { headWidth: number; headHeight: number; gap: number },
): number {
  const ratio = cellHeight(1000, aspect) / 1000;
  const byWidth = (viewport.width - heads.headWidth) / columns - heads.gap;
  const byHeight = (viewport.height - heads.headHeight) / rows / ratio - heads.gap;
  return clampZoom(Math.floor(Math.min(byWidth, byHeight) / ZOOM.step) * ZOOM.step);
}
