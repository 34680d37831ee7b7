import { CARD_GAP } from './grid-layout';
import { justifyRange, type JustifyInput } from './justify';
/**
 * The grid's rows for the virtualiser: rows of cards, a date header before each section (only when the sort is by
 * date), the strip of an expanded card's images beneath its row, and the "Loading more" row at the end.
 */
export type GridRowItem =
  | { kind: 'header'; label: string }
  | { kind: 'cards'; start: number; end: number; label: string | null; height?: number; widths?: number[] }
  | { kind: 'strip' }
  | { kind: 'more' };

export interface RowModel {
  rows: GridRowItem[];
  /** The index in `rows` of the cards row that holds card `index`. */
  rowOf(index: number): number;
  /** The header label of the section `row` belongs to (null without headers). */
  labelAt(row: number): string | null;
}

export interface RowInput {
  length: number;
  columns: number;
  /** The section of card i, or null for no headers at all. */
  labelOf: ((index: number) => string) | null;
  /** The card whose images show in a strip beneath its row, or -1. */
  expandedIndex: number;
  hasMore: boolean;
  /** Justified rows at each card's true aspect instead of fixed columns (the list view keeps one column). */
  justify?: JustifyInput;
}

export function buildRows({ length, columns, labelOf: labelFn, expandedIndex, hasMore, justify }: RowInput): RowModel {
  // Each card's label once: the loop below asks for it at a row's start and again while filling the row.
  const cardLabels = labelFn === null ? null : Array.from({ length }, (_, i) => labelFn(i));
  const labelOf = cardLabels === null ? null : (i: number) => cardLabels[i]!;
  const rows: GridRowItem[] = [];
  const cardRows: number[] = [];
  const starts: number[] = [];
  const labels: (string | null)[] = [];
  let current: string | null = null;
  let i = 0;
  while (i < length) {
    const label = labelOf === null ? null : labelOf(i);
    if (label !== null && (label !== current || rows.length === 0)) {
      rows.push({ kind: 'header', label });
      labels.push(label);
    }
    current = label;
    let end = i + 1;
    // Fixed columns end a row at the column count; justified rows run to the section's end and are packed below.
    while (end < length && (justify !== undefined || end - i < columns) && (labelOf === null || labelOf(end) === label))
      end += 1;
    const packed = justify === undefined ? [{ start: i, end }] : justifyRange(i, end, justify);
    for (const row of packed) {
      cardRows.push(rows.length);
      starts.push(row.start);
      rows.push({ kind: 'cards', ...row, label });
      labels.push(label);
      if (expandedIndex >= row.start && expandedIndex < row.end) {
        rows.push({ kind: 'strip' });
        labels.push(label);
      }
    }
    i = end;
  }
  if (hasMore) {
    rows.push({ kind: 'more' });
    labels.push(current);
  }
  const rowOf = (index: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    if (hi < 0) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return cardRows[lo]!;
  };
  return { rows, rowOf, labelAt: (row) => labels[row] ?? null };
}

/** Up and down keep the column across rows of different lengths (a section's last row may be short). */
export function moveVertical(model: RowModel, index: number, direction: 1 | -1): number {
  const row = model.rowOf(index);
  const here = model.rows[row];
  if (here?.kind !== 'cards') return index;
  const column = index - here.start;
  for (let r = row + direction; r >= 0 && r < model.rows.length; r += direction) {
    const other = model.rows[r]!;
    if (other.kind !== 'cards') continue;
    // Justified rows have no columns: the card under the middle of this one, as the eye goes.
    if (here.widths !== undefined && other.widths !== undefined)
      return other.start + cardAt(other.widths, centreOf(here.widths, column));
    return Math.min(other.start + column, other.end - 1);
  }
  return index;
}

/** The x of the middle of card `k` in a row of these widths. */
function centreOf(widths: readonly number[], k: number): number {
  let left = 0;
  for (let i = 0; i < k; i += 1) left += widths[i]! + CARD_GAP;
  return left + widths[k]! / 2;
}

/** The card of a row that covers x, or the last one when x is past its end. */
function cardAt(widths: readonly number[], x: number): number {
  let right = 0;
  for (let i = 0; i < widths.length; i += 1) {
    // A point in the gap after a card counts as that card's.
    right += widths[i]! + CARD_GAP;
    if (x < right) return i;
  }
  return widths.length - 1;
}

/**
 * The section named above the view while its rows scroll under it (date order only), or null where its own header
 * is on screen and takes over.
 */
export function stickyLabelAt(
  model: RowModel,
  items: readonly { index: number; start: number; end: number }[],
  scrollTop: number,
  byDate: boolean,
): string | null {
  if (!byDate) return null;
  const top = items.find((item) => item.end > scrollTop);
  if (top === undefined) return null;
  if (model.rows[top.index]?.kind === 'header' && top.start >= scrollTop - 4) return null;
  return model.labelAt(top.index);
}

/**
 * The virtualiser's key for row i. A label can repeat while a new order is on its way (headers over the last sort's
 * order): a header is keyed by its section's first job, never by its label, or React keeps a stale duplicate header.
 */
export function rowKeyOf(model: RowModel, order: readonly string[], i: number): string | number {
  const row = model.rows[i];
  if (row === undefined) return i;
  if (row.kind === 'header') {
    const next = model.rows[i + 1];
    return `h:${row.label}:${next?.kind === 'cards' ? (order[next.start] ?? next.start) : i}`;
  }
  return row.kind === 'cards' ? `c:${order[row.start] ?? row.start}` : row.kind;
}
