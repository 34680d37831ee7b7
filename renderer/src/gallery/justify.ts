/** One justified row: cards start..end-1, all `height` tall, each as wide as its aspect ratio makes it. */
export interface JustifiedRow {
  start: number;
  end: number;
  height: number;
  widths: number[];
}

export interface JustifyInput {
  /** Width over height of card i. */
  aspectOf(index: number): number;
  /** The row's usable width in CSS pixels. */
  width: number;
  /** The height a row aims for (the thumbnail size control). */
  target: number;
  gap: number;
}

/** A row may grow this much above the target to avoid an overfull one; beyond it, one more card shrinks it instead. */
const MAX_GROW = 1.5;

/**
 * Packs cards start..end-1 into rows that fill the width exactly, like Flickr's and Google Photos' grids: each row
 * takes cards until they overfill at the target height, then scales to fit, choosing whichever of "with" or
 * "without" the last card lands nearer the target. A section's last row stays at the target height, left aligned.
 */
export function justifyRange(
  start: number,
  end: number,
  { aspectOf, width, target, gap }: JustifyInput,
): JustifiedRow[] {
  const rows: JustifiedRow[] = [];
  const usable = Math.max(1, width);
  let i = start;
  while (i < end) {
    let sum = 0;
    let j = i;
    let full = false;
    while (j < end) {
      sum += aspectOf(j);
      j += 1;
      if (sum * target + gap * (j - i - 1) >= usable) {
        full = true;
        break;
      }
    }
    if (!full) {
      rows.push(rowOf(i, j, target, aspectOf, gap, null));
      break;
    }
    let height = (usable - gap * (j - i - 1)) / sum;
    if (j - i > 1) {
      const without = sum - aspectOf(j - 1);
      const taller = (usable - gap * (j - i - 2)) / without;
      if (taller <= target * MAX_GROW && Math.abs(taller - target) < Math.abs(height - target)) {
        j -= 1;
        height = taller;
      }
    }
    rows.push(rowOf(i, j, height, aspectOf, gap, usable));
    i = j;
  }
  return rows;
}

/** Whole-pixel widths; a full row's edges are snapped so its cards and gaps add up to the width exactly. */
function rowOf(
  start: number,
  end: number,
  height: number,
  aspectOf: (i: number) => number,
  gap: number,
  fill: number | null,
): JustifiedRow {
  const widths: number[] = [];
  if (fill === null) {
    for (let k = start; k < end; k += 1) widths.push(Math.max(1, Math.round(aspectOf(k) * height)));
    return { start, end, height: Math.round(height), widths };
  }
  let edge = 0;
  let placed = 0;
  for (let k = start; k < end; k += 1) {
    edge += aspectOf(k) * height;
    const right = k === end - 1 ? fill - gap * (end - start - 1) : Math.round(edge);
    widths.push(Math.max(1, right - placed));
    placed = right;
  }
  return { start, end, height: Math.round(height), widths };
}
