export const CARD_MIN_WIDTH = 180;
/** Space between cards, across and down: small, so the pictures read as one wall. */
export const CARD_GAP = 6;
/** The grid's own inset from the window's edges (the CSS padding of .grid-scroll). */
export const GRID_PADDING = 12;
/** Caption and badges under the square thumbnail. */
export const CARD_CAPTION = 56;

export interface GridLayout {
  columns: number;
  cardWidth: number;
  rowHeight: number;
  rows: number;
}

/** The thumbnail size control's range (a card's smallest width), dense to large; CARD_MIN_WIDTH is the default. */
export const THUMB_SIZES = { min: 120, max: 480, step: 20 } as const;

export function clampThumbSize(size: number): number {
  if (!Number.isFinite(size)) return CARD_MIN_WIDTH;
  const stepped = Math.round(size / THUMB_SIZES.step) * THUMB_SIZES.step;
  return Math.min(THUMB_SIZES.max, Math.max(THUMB_SIZES.min, stepped));
}

/** How many cards of at least `minWidth` fit in a row of the given width, and how tall each row is. */
export function gridLayout(width: number, items: number, minWidth: number = CARD_MIN_WIDTH): GridLayout {
  const usable = Math.max(width, minWidth);
  const columns = Math.max(1, Math.floor((usable + CARD_GAP) / (minWidth + CARD_GAP)));
  const cardWidth = Math.floor((usable - CARD_GAP * (columns - 1)) / columns);
  return { columns, cardWidth, rowHeight: cardWidth + CARD_CAPTION + CARD_GAP, rows: Math.ceil(items / columns) };
}

export interface StripRows {
  /** The data row the strip sits beneath, or -1 when nothing is expanded. */
  stripAfter: number;
  isStrip(virtualIndex: number): boolean;
  /** Virtual row (what the virtualizer counts) to data row (a row of cards); the strip maps to its card's row. */
  toData(virtualIndex: number): number;
  toVirtual(dataRow: number): number;
}

/** Maps between the virtualizer's rows and rows of cards when an image strip is inserted after one of them. */
export function stripRows(stripAfter: number): StripRows {
  const on = stripAfter >= 0;
  return {
    stripAfter,
    isStrip: (v) => on && v === stripAfter + 1,
    toData: (v) => (on && v > stripAfter ? v - 1 : v),
    toVirtual: (row) => (on && row > stripAfter ? row + 1 : row),
  };
}

/** A date header's row (Today, Yesterday, November 2026) above its section of cards. */
export const HEADER_HEIGHT = 40;
