/**
 * The composer's one way to set a size: ratio chips beside the width and height fields. A chip is lit when the size
 * is that ratio rounded to the provider's size step (and no other chip is nearer); clicking one gives the size nearest
 * the current area that lights it.
 */

export interface AspectRatio {
  readonly label: string;
  readonly w: number;
  readonly h: number;
}

export const ASPECT_RATIOS: readonly AspectRatio[] = [
  { label: '1:1', w: 1, h: 1 },
  { label: '4:3', w: 4, h: 3 },
  { label: '3:2', w: 3, h: 2 },
  { label: '16:9', w: 16, h: 9 },
  { label: '3:4', w: 3, h: 4 },
  { label: '2:3', w: 2, h: 3 },
  { label: '9:16', w: 9, h: 16 },
];

/** What a provider accepts for free sizes (ProviderCapabilities['sizes'] without its lists). */
export interface SizeRules {
  min: number;
  max: number;
  multipleOf: number;
}

/**
 * Whether some exact `ratio` size rounds to width × height at this step: a scale t with |t·w − width| and
 * |t·h − height| both at most half a step. In integers (doubled), so no float decides it.
 */
function roundsTo(ratio: AspectRatio, width: number, height: number, step: number): boolean {
  const s = Math.max(1, step);
  return (
    (2 * width - s) * ratio.h <= (2 * height + s) * ratio.w && (2 * height - s) * ratio.w <= (2 * width + s) * ratio.h
  );
}

/** The chip nearest to width:height (log distance, so 2:1 and 1:2 are equally far from 1:1). */
function nearestRatio(width: number, height: number, ratios: readonly AspectRatio[]): AspectRatio | undefined {
  const shape = Math.log(width / height);
  let best: AspectRatio | undefined;
  let bestDistance = Infinity;
  for (const ratio of ratios) {
    const distance = Math.abs(shape - Math.log(ratio.w / ratio.h));
    if (distance < bestDistance) [best, bestDistance] = [ratio, distance];
  }
  return best;
}

/** The one lit chip for width × height, or null for a size that is no chip's ratio within a step's rounding. */
export function litRatio(
  width: number,
  height: number,
  step: number,
  ratios: readonly AspectRatio[] = ASPECT_RATIOS,
): AspectRatio | null {
  if (!(width > 0 && height > 0 && Number.isFinite(width) && Number.isFinite(height))) return null;
  const nearest = nearestRatio(width, height, ratios);
  return nearest !== undefined && roundsTo(nearest, width, height, step) ? nearest : null;
}

/** How round a size is: the largest power of two up to 64 dividing both edges (512×512 beats 504×504). */
function roundness(width: number, height: number): number {
  let r = 1;
  while (r < 64 && width % (r * 2) === 0 && height % (r * 2) === 0) r *= 2;
  return r;
}

/** The share of area within which a rounder size wins over a nearer one, so 4:3 then 1:1 comes back to 512×512. */
const AREA_BAND = 0.05;

/**
 * The size a chip sets: within the rules, lighting that chip, its area nearest the current one; among sizes within
 * 5% of that area the roundest. Null when no size within the rules lights it.
 */
export function sizeForRatio(
  ratio: AspectRatio,
  width: number,
  height: number,
  rules: SizeRules,
  ratios: readonly AspectRatio[] = ASPECT_RATIOS,
): [number, number] | null {
  const step = Math.max(1, rules.multipleOf);
  const lo = Math.ceil(rules.min / step) * step;
  const hi = Math.floor(rules.max / step) * step;
  if (lo > hi) return null;
  const clamp = (v: number) => Math.min(hi, Math.max(lo, v));
  const target = clamp(width > 0 ? width : lo) * clamp(height > 0 ? height : lo);
  const snap = (v: number) => Math.round(v / step) * step;
  let best: { w: number; h: number; far: number; round: number } | null = null;
  const consider = (w: number, h: number) => {
    if (w < lo || w > hi || h < lo || h > hi) return;
    if (litRatio(w, h, step, ratios) !== ratio) return;
    const far = Math.abs(Math.log((w * h) / target));
    const round = roundness(w, h);
    if (best === null || better({ far, round }, best)) best = { w, h, far, round };
  };
  // Every short edge on the step with its rounded long edge, and the other way round: each lit size is one of these.
  for (let v = lo; v <= hi; v += step) {
    consider(snap((v * ratio.w) / ratio.h), v);
    consider(v, snap((v * ratio.h) / ratio.w));
  }
  const found = best as { w: number; h: number } | null;
  return found === null ? null : [found.w, found.h];
}

const BAND = Math.log(1 + AREA_BAND);

function better(a: { far: number; round: number }, b: { far: number; round: number }): boolean {
  const aIn = a.far <= BAND;
  const bIn = b.far <= BAND;
  if (aIn !== bIn) return aIn;
  if (aIn && a.round !== b.round) return a.round > b.round;
  return a.far < b.far;
}

/** A fixed size's chip: its ratio's label when it is one of the chips exactly, else "W × H". */
export function fixedSizeLabel(width: number, height: number, ratios: readonly AspectRatio[] = ASPECT_RATIOS): string {
  const exact = ratios.find((r) => width * r.h === height * r.w);
  return exact === undefined ? `${width} × ${height}` : `${exact.label} · ${width} × ${height}`;
}
