/**
 * The viewer's zoom and pan as pure math. The image is drawn at its own pixel size with
 * `translate(x, y) scale(scale)` from its top-left corner, inside a pane of the given size.
 */
export interface Size {
  width: number;
  height: number;
}
export interface Point {
  x: number;
  y: number;
}
export interface View {
  scale: number;
  x: number;
  y: number;
}

/** How far past 1:1 (or past fit, for a small image) a person can zoom in. */
export const MAX_ZOOM = 8;
/** One + / − key press or toolbar click. */
export const ZOOM_STEP = 1.25;

/** The scale at which the whole image fits the pane (a small image is enlarged to fill it). */
export function fitScale(image: Size, pane: Size): number {
  if (image.width <= 0 || image.height <= 0 || pane.width <= 0 || pane.height <= 0) return 1;
  return Math.min(pane.width / image.width, pane.height / image.height);
}

/** Zooming out stops at fit (or 1:1 if that is smaller); in, at MAX_ZOOM times the larger of the two. */
export function scaleLimits(image: Size, pane: Size): { min: number; max: number } {
  const fit = fitScale(image, pane);
  return { min: Math.min(fit, 1), max: Math.max(fit, 1) * MAX_ZOOM };
}

export function clampScale(scale: number, image: Size, pane: Size): number {
  const { min, max } = scaleLimits(image, pane);
  if (!Number.isFinite(scale)) return min;
  return Math.min(max, Math.max(min, scale));
}

/** Along one axis: an image smaller than the pane sits centred; a larger one always covers the pane edge to edge. */
function clampAxis(offset: number, drawn: number, pane: number): number {
  if (drawn <= pane) return (pane - drawn) / 2;
  return Math.min(0, Math.max(pane - drawn, offset));
}

/** The view with its scale in limits and its pan such that the image never leaves the pane (nor shows a gap while larger). */
export function clampView(view: View, image: Size, pane: Size): View {
  const scale = clampScale(view.scale, image, pane);
  return {
    scale,
    x: clampAxis(view.x, image.width * scale, pane.width),
    y: clampAxis(view.y, image.height * scale, pane.height),
  };
}

/** The image at `scale`, its middle on the pane's middle. */
export function centredView(scale: number, image: Size, pane: Size): View {
  return clampView(
    { scale, x: (pane.width - image.width * scale) / 2, y: (pane.height - image.height * scale) / 2 },
    image,
    pane,
  );
}

export function fitView(image: Size, pane: Size): View {
  return centredView(fitScale(image, pane), image, pane);
}

/** 1:1, centred on the image's middle (not pinned to its top-left corner). */
export function actualView(image: Size, pane: Size): View {
  return centredView(1, image, pane);
}

/** Scales about a pane point without limits: the image pixel under `point` stays under it. */
export function zoomAt(view: View, scale: number, point: Point): View {
  const k = scale / view.scale;
  return { scale, x: point.x - (point.x - view.x) * k, y: point.y - (point.y - view.y) * k };
}

/** Zooms by `factor` around a pane point (the cursor, the pinch's middle), then clamps. */
export function zoomAround(view: View, factor: number, point: Point, image: Size, pane: Size): View {
  const scale = clampScale(view.scale * factor, image, pane);
  return clampView(zoomAt(view, scale, point), image, pane);
}

export function panBy(view: View, dx: number, dy: number, image: Size, pane: Size): View {
  return clampView({ scale: view.scale, x: view.x + dx, y: view.y + dy }, image, pane);
}

/** The image pixel shown at a pane point. */
export function imagePoint(view: View, point: Point): Point {
  return { x: (point.x - view.x) / view.scale, y: (point.y - view.y) / view.scale };
}

/**
 * The same zoom on the next image (← →): same scale relative to 1:1, same relative point at the pane's middle.
 * An image that was at fit stays at fit.
 */
export function carryView(view: View, fitted: boolean, from: Size, to: Size, pane: Size): View {
  if (fitted) return fitView(to, pane);
  const middle = imagePoint(view, { x: pane.width / 2, y: pane.height / 2 });
  const u = from.width > 0 ? middle.x / from.width : 0.5;
  const v = from.height > 0 ? middle.y / from.height : 0.5;
  const scale = clampScale(view.scale, to, pane);
  return clampView(
    { scale, x: pane.width / 2 - u * to.width * scale, y: pane.height / 2 - v * to.height * scale },
    to,
    pane,
  );
}

/** The CSS transform that draws a view: one composited element, no layout per frame. */
export function transformOf(view: View): string {
  return `translate(${view.x}px, ${view.y}px) scale(${view.scale})`;
}

/**
 * A pinch, from where its two pointers went down (`start`, `from`) to where they are (`to`): the distance scales,
 * and the image point that was under their middle follows the middle. Computed from the start, so no clamp on the way loses a step.
 */
export function pinchView(start: View, from: [Point, Point], to: [Point, Point], image: Size, pane: Size): View {
  const d0 = Math.hypot(from[0].x - from[1].x, from[0].y - from[1].y);
  const d1 = Math.hypot(to[0].x - to[1].x, to[0].y - to[1].y);
  const scale = clampScale(d0 > 0 ? (start.scale * d1) / d0 : start.scale, image, pane);
  const m0 = { x: (from[0].x + from[1].x) / 2, y: (from[0].y + from[1].y) / 2 };
  const m1 = { x: (to[0].x + to[1].x) / 2, y: (to[0].y + to[1].y) / 2 };
  const anchor = imagePoint(start, m0);
  return clampView({ scale, x: m1.x - anchor.x * scale, y: m1.y - anchor.y * scale }, image, pane);
}
