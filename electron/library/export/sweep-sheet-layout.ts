/** Where everything sits on a sweep's sheet: X values across, Y values down, one Z page per sheet. Pure maths. */

/** The longest side a sheet may have, and the most pixels it may hold: a 20×25 grid stays one file any viewer opens. */
export const MAX_SHEET_SIDE = 8_192;
export const MAX_SHEET_PIXELS = 32 * 1024 * 1024;
/** A cell box's long side before any scaling down: enough to judge a setting, small enough for big grids. */
export const CELL_LONG_SIDE = 512;
const MIN_CELL_SIDE = 8;
export const TITLE_SCALE = 1.25;

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface SheetLayout {
  width: number;
  height: number;
  /** Font size of every label, in pixels. */
  font: number;
  /** The two title lines (name and page; the base settings). */
  title: Rect;
  settings: Rect;
  /** The X field's name over the columns, and each column's value header. */
  xField: Rect;
  xHeaders: Rect[];
  /** The Y field's name in the corner, and each row's value label. */
  yField: Rect;
  yHeaders: Rect[];
  /** cells[y][x]: the box each cell's picture is fitted into. */
  cells: Rect[][];
}

export interface LayoutInput {
  columns: number;
  rows: number;
  /** Width over height of the cell box (the sweep's first picture; 1 when there is none). */
  aspect: number;
  /** The largest cell picture's long side: boxes never upscale pictures past it. */
  longestSide?: number | undefined;
  /** Whether there is a Y axis to label (a one-axis sweep has one unlabelled row). */
  yAxis: boolean;
  /** The widest Y label (its field or a value) in em: the left column is as wide as it, within bounds. */
  yLabelEm?: number | undefined;
}

const clamp = (value: number, low: number, high: number): number => Math.min(high, Math.max(low, value));

/** The box's size at its long side `long`, keeping `aspect`. */
function box(aspect: number, long: number): { width: number; height: number } {
  const a = Number.isFinite(aspect) && aspect > 0 ? clamp(aspect, 1 / 8, 8) : 1;
  return a >= 1
    ? { width: Math.max(MIN_CELL_SIDE, Math.round(long)), height: Math.max(MIN_CELL_SIDE, Math.round(long / a)) }
    : { width: Math.max(MIN_CELL_SIDE, Math.round(long * a)), height: Math.max(MIN_CELL_SIDE, Math.round(long)) };
}

function place(input: LayoutInput, long: number): SheetLayout {
  const { columns, rows } = input;
  const cell = box(input.aspect, long);
  const gap = Math.min(cell.width, cell.height) >= 64 ? 4 : 1;
  const font = clamp(Math.round(Math.min(cell.width, cell.height) / 14), 12, 22);
  const line = Math.ceil(font * 1.6);
  const pad = Math.ceil(font * 0.75);
  // The title's line is drawn at TITLE_SCALE times the font.
  const titleLine = Math.ceil(font * TITLE_SCALE * 1.6);
  const wanted = Math.ceil(((input.yLabelEm ?? 6) + 1) * font);
  const left = input.yAxis ? clamp(wanted, font * 4, Math.max(font * 8, Math.min(font * 20, cell.width * 2))) : 0;
  const gridWidth = columns * cell.width + (columns - 1) * gap;
  const gridHeight = rows * cell.height + (rows - 1) * gap;
  const width = pad + left + (input.yAxis ? gap : 0) + gridWidth + pad;
  const title: Rect = { left: pad, top: pad, width: width - 2 * pad, height: titleLine };
  const settings: Rect = { left: pad, top: pad + titleLine, width: width - 2 * pad, height: line };
  const headerTop = pad + titleLine + line + pad;
  const gridLeft = pad + left + (input.yAxis ? gap : 0);
  const xField: Rect = { left: gridLeft, top: headerTop, width: gridWidth, height: line };
  const gridTop = headerTop + 2 * line;
  const xHeaders: Rect[] = [];
  for (let x = 0; x < columns; x += 1)
    xHeaders.push({ left: gridLeft + x * (cell.width + gap), top: headerTop + line, width: cell.width, height: line });
  const yField: Rect = { left: pad, top: headerTop + line, width: left, height: line };
  const yHeaders: Rect[] = [];
  const cells: Rect[][] = [];
  for (let y = 0; y < rows; y += 1) {
    const top = gridTop + y * (cell.height + gap);
    yHeaders.push({ left: pad, top, width: left, height: cell.height });
    const row: Rect[] = [];
    for (let x = 0; x < columns; x += 1)
      row.push({ left: gridLeft + x * (cell.width + gap), top, width: cell.width, height: cell.height });
    cells.push(row);
  }
  return {
    width,
    height: gridTop + gridHeight + pad,
    font,
    title,
    settings,
    xField,
    xHeaders,
    yField,
    yHeaders,
    cells,
  };
}

const fits = (l: SheetLayout): boolean =>
  l.width <= MAX_SHEET_SIDE && l.height <= MAX_SHEET_SIDE && l.width * l.height <= MAX_SHEET_PIXELS;

/**
 * The sheet for a grid of `columns` × `rows` cells. Boxes start at CELL_LONG_SIDE (or the largest picture, if
 * smaller) and shrink until the sheet fits MAX_SHEET_SIDE and MAX_SHEET_PIXELS, so a big grid gives smaller cells,
 * never a file too large to open.
 */
export function layoutSheet(input: LayoutInput): SheetLayout {
  const columns = Math.max(1, Math.floor(input.columns));
  const rows = Math.max(1, Math.floor(input.rows));
  const grid = { ...input, columns, rows };
  let long = clamp(input.longestSide ?? CELL_LONG_SIDE, 64, CELL_LONG_SIDE);
  let layout = place(grid, long);
  // Each step shrinks by the overflow's ratio; labels and pads shrink less, hence a few steps.
  while (!fits(layout) && long > MIN_CELL_SIDE) {
    const ratio = Math.min(
      MAX_SHEET_SIDE / layout.width,
      MAX_SHEET_SIDE / layout.height,
      Math.sqrt(MAX_SHEET_PIXELS / (layout.width * layout.height)),
    );
    long = Math.max(MIN_CELL_SIDE, Math.min(long - 1, Math.floor(long * ratio)));
    layout = place(grid, long);
  }
  return layout;
}
