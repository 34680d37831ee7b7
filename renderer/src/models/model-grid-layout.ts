/** The Models screen's windowed grid: equal cards in rows, only the rows near the view drawn (2,000 cards stay cheap). */

/** A card's narrowest width, the gap between cards, and the fixed height of its words under the picture. */
export const MODEL_CARD = { minWidth: 240, gap: 16, bodyHeight: 208 } as const;
/** Rows drawn beyond the view on each side, so a scroll shows cards already painted. */
const OVERSCAN_ROWS = 2;

export interface ModelGridLayout {
  columns: number;
  cardWidth: number;
  pictureHeight: number;
  rowHeight: number;
  totalHeight: number;
  /** The rows to draw, first included, end excluded. */
  firstRow: number;
  endRow: number;
}

export function modelGridLayout(width: number, count: number, scrollTop: number, viewHeight: number): ModelGridLayout {
  const { minWidth, gap, bodyHeight } = MODEL_CARD;
  const columns = Math.max(1, Math.floor((Math.max(0, width) + gap) / (minWidth + gap)));
  const cardWidth = Math.max(1, Math.floor((width - gap * (columns - 1)) / columns));
  // A 4:3 picture: most checkpoints' favourite images are portraits or squares, cropped to the card's middle.
  const pictureHeight = Math.round((cardWidth * 3) / 4);
  const rowHeight = pictureHeight + bodyHeight;
  const rows = Math.ceil(count / columns);
  const totalHeight = rows === 0 ? 0 : rows * rowHeight + (rows - 1) * gap;
  const stride = rowHeight + gap;
  const firstRow = Math.max(0, Math.floor(scrollTop / stride) - OVERSCAN_ROWS);
  const endRow = Math.min(rows, Math.ceil((scrollTop + viewHeight) / stride) + OVERSCAN_ROWS);
  return { columns, cardWidth, pictureHeight, rowHeight, totalHeight, firstRow, endRow: Math.max(firstRow, endRow) };
}
