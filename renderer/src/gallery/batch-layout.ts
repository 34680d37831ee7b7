/** Where a batch's pictures sit inside its card: all of them side by side, so a batch is culled at a glance. */

/** One picture's place in the card, in whole CSS pixels from the card's top left. */
export interface BatchTile {
  /** The image's index among the card's shown images. */
  index: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface BatchLayout {
  tiles: BatchTile[];
  /** Beyond four: the last place shows "+N" for the images not drawn (N = more.count), null otherwise. */
  more: { count: number; x: number; y: number; w: number; h: number } | null;
}

/** Space between a batch's pictures inside its card. */
export const BATCH_GAP = 2;

/** Columns and rows of the card's grid for a batch of this many: a row for two or three, two by two from four. */
export function batchGrid(count: number): { columns: number; rows: number } {
  if (count <= 1) return { columns: 1, rows: 1 };
  if (count <= 3) return { columns: count, rows: 1 };
  return { columns: 2, rows: 2 };
}

/**
 * How wide a card is for its height, given how many pictures it shows and each picture's own width over height:
 * a row of two or three is two or three pictures wide, so none is cropped to a sliver.
 */
export function batchAspect(count: number, imageAspect: number): number {
  const { columns, rows } = batchGrid(count);
  return (imageAspect * columns) / rows;
}

/** Splits `length` into `parts` whole-pixel spans with `gap` between them, the last one ending exactly at `length`. */
function spans(length: number, parts: number, gap: number): Array<[number, number]> {
  // A card too small for the gaps draws its pictures touching rather than vanishing.
  const g = length - gap * (parts - 1) >= parts * 4 ? gap : 0;
  const each = (length - g * (parts - 1)) / parts;
  const out: Array<[number, number]> = [];
  for (let k = 0; k < parts; k += 1) {
    const start = Math.round(k * (each + g));
    const end = k === parts - 1 ? length : Math.round(k * (each + g) + each);
    out.push([start, Math.max(start + 1, end) - start]);
  }
  return out;
}

/**
 * The pictures of a batch of `count` in a card `width` × `height`: one fills it, two or three share a row, four are
 * two by two, and beyond four the first three show and the fourth place counts the rest ("+N").
 */
export function batchLayout(count: number, width: number, height: number, gap: number = BATCH_GAP): BatchLayout {
  const w = Math.max(1, Math.round(width));
  const h = Math.max(1, Math.round(height));
  if (count <= 0) return { tiles: [], more: null };
  const { columns, rows } = batchGrid(count);
  const xs = spans(w, columns, gap);
  const ys = spans(h, rows, gap);
  const places = ys.flatMap(([y, ph]) => xs.map(([x, pw]) => ({ x, y, w: pw, h: ph })));
  if (count <= places.length) return { tiles: places.slice(0, count).map((p, index) => ({ index, ...p })), more: null };
  const shown = places.length - 1;
  return {
    tiles: places.slice(0, shown).map((p, index) => ({ index, ...p })),
    more: { count: count - shown, ...places[shown]! },
  };
}

/** The inset of an expanded batch's strip and the space between its pictures (the CSS of .image-strip). */
export const STRIP_INSET = 12;
export const STRIP_SPACE = 8;
/** An expanded picture is never drawn taller than this, however wide the window. */
export const STRIP_MAX_EDGE = 480;

export interface StripLayout {
  /** Each picture's height and width in the strip. */
  height: number;
  width: number;
  perLine: number;
  lines: number;
  /** The strip's whole height, insets included. */
  total: number;
}

/**
 * An expanded batch: every picture larger than the card it came from (at least `atLeast` tall), all on one line when
 * the width allows it at that size, else wrapped. `aspect` is a picture's width over height.
 */
export function stripLayout(count: number, aspect: number, width: number, atLeast: number): StripLayout {
  const n = Math.max(1, count);
  const a = Number.isFinite(aspect) && aspect > 0 ? aspect : 1;
  const room = Math.max(1, width - 2 * STRIP_INSET);
  // The height at which all of them fill one line, kept between the card's own height and the cap.
  const oneLine = (room - STRIP_SPACE * (n - 1)) / n / a;
  const floor = Math.min(Math.max(1, atLeast), STRIP_MAX_EDGE);
  let height = Math.floor(Math.min(STRIP_MAX_EDGE, Math.max(floor, oneLine)));
  // Never wider than the strip itself.
  height = Math.max(1, Math.min(height, Math.floor(room / a)));
  const fits = Math.max(1, Math.min(n, Math.floor((room + STRIP_SPACE) / (Math.floor(height * a) + STRIP_SPACE))));
  const lines = Math.ceil(n / fits);
  // As many on each line as the lines need (ten on two lines: five and five), grown to fill the width.
  const perLine = Math.ceil(n / lines);
  const filled = Math.floor(Math.min(STRIP_MAX_EDGE, (room - STRIP_SPACE * (perLine - 1)) / perLine / a));
  height = Math.max(height, filled);
  return {
    height,
    width: Math.max(1, Math.floor(height * a)),
    perLine,
    lines,
    total: lines * height + (lines - 1) * STRIP_SPACE + 2 * STRIP_INSET,
  };
}
