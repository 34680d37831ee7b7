export const CARD_MIN_WIDTH = 180;
export const CARD_GAP = 12;
/** Caption and badges under the square thumbnail. */
export const CARD_CAPTION = 56;

export interface GridLayout {
  columns: number;
  cardWidth: number;
  rowHeight: number;
  rows: number;
}

/** How many cards fit in a row of the given width, and how tall each row is. */
export function gridLayout(width: number, items: number): GridLayout {
  const usable = Math.max(width, CARD_MIN_WIDTH);
  const columns = Math.max(1, Math.floor((usable + CARD_GAP) / (CARD_MIN_WIDTH + CARD_GAP)));
  const cardWidth = Math.floor((usable - CARD_GAP * (columns - 1)) / columns);
  return { columns, cardWidth, rowHeight: cardWidth + CARD_CAPTION + CARD_GAP, rows: Math.ceil(items / columns) };
}
