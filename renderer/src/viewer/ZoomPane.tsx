import { useEffect, useEffectEvent, useImperativeHandle, useLayoutEffect, useRef, useState, type Ref } from 'react';
import { fromShared, toShared, type SharedView } from './compare';
import {
  actualView,
  carryView,
  clampView,
  fitView,
  panBy,
  pinchView,
  transformOf,
  zoomAround,
  ZOOM_STEP,
  type Point,
  type Size,
  type View,
} from './zoom';

export interface ZoomControls {
  zoomIn(): void;
  zoomOut(): void;
  fit(): void;
  actual(): void;
  /** Z and double-click: fit ↔ 1:1. */
  toggle(): void;
}

const WHEEL_RATE = 0.0015;

/**
 * One image, zoomed and panned by a CSS transform on a single element (composited: no layout per frame).
 * Wheel zooms around the pointer, two pointers pinch, one drags to pan while the image is larger than the pane.
 * The view survives a change of image (← →), so a batch is compared at the same zoom.
 */
/** Compare's controlled view: the pane draws `view` and reports its own zooms and pans through `onChange`. */
export interface ZoomSync {
  view: SharedView;
  onChange(view: SharedView): void;
}

export function ZoomPane({
  src,
  width,
  height,
  alt,
  ref,
  onDragOut,
  sync,
}: {
  src: string;
  width: number;
  height: number;
  alt: string;
  ref?: Ref<ZoomControls> | undefined;
  onDragOut?: (() => void) | undefined;
  sync?: ZoomSync | undefined;
}) {
  const paneRef = useRef<HTMLDivElement>(null);
  const imgRef = useRef<HTMLImageElement>(null);
  const paneSize = useRef<Size>({ width: 0, height: 0 });
  const image = useRef<Size>({ width, height });
  const view = useRef<View>({ scale: 1, x: 0, y: 0 });
  const fitted = useRef(true);
  const pointers = useRef(new Map<number, Point>());
  // When the last drag ended: two quick drags are not a double-click.
  const lastDrag = useRef(0);
  const pinch = useRef<{ start: View; from: [Point, Point]; ids: [number, number] } | null>(null);
  // A one-pointer drag is measured from where it began, so a move the browser coalesces away loses nothing.
  const drag = useRef<{ start: View; from: Point; id: number } | null>(null);
  const [percent, setPercent] = useState(100);
  const [zoomed, setZoomed] = useState(false);
  const [isFit, setIsFit] = useState(true);

  const syncRef = useRef(sync);
  // Kept current before the layout effects below read it (they run in order, this one first).
  useLayoutEffect(() => {
    syncRef.current = sync;
  });
  // The shared view this pane last sent: coming back as the prop, it is already drawn.
  const sent = useRef<SharedView | null>(null);
  const apply = (next: View, isFit = false, emit = true) => {
    const s = syncRef.current;
    if (emit && s !== undefined && paneSize.current.width > 0) {
      sent.current = toShared(next, isFit, image.current, paneSize.current);
      s.onChange(sent.current);
    }
    view.current = next;
    fitted.current = isFit;
    if (imgRef.current !== null) imgRef.current.style.transform = transformOf(next);
    setPercent(Math.round(next.scale * 100));
    setIsFit(isFit);
    const pane = paneSize.current;
    setZoomed(
      image.current.width * next.scale > pane.width + 0.5 || image.current.height * next.scale > pane.height + 0.5,
    );
  };
  const size = (): Size => image.current;
  const middle = (): Point => ({ x: paneSize.current.width / 2, y: paneSize.current.height / 2 });
  const zoomBy = (factor: number, point: Point = middle()) =>
    apply(zoomAround(view.current, factor, point, size(), paneSize.current));
  const controls: ZoomControls = {
    zoomIn: () => zoomBy(ZOOM_STEP),
    zoomOut: () => zoomBy(1 / ZOOM_STEP),
    fit: () => apply(fitView(size(), paneSize.current), true),
    actual: () => apply(actualView(size(), paneSize.current)),
    toggle: () => (fitted.current ? controls.actual() : controls.fit()),
  };
  useImperativeHandle(ref, () => controls);

  // The pane's size, kept current; a resize refits a fitted image and re-clamps a zoomed one.
  useLayoutEffect(() => {
    const pane = paneRef.current;
    if (pane === null) return;
    const measure = () => {
      // Hidden under the mask brush: keep the last real size.
      if (pane.clientWidth === 0 || pane.clientHeight === 0) return;
      paneSize.current = { width: pane.clientWidth, height: pane.clientHeight };
      const s = syncRef.current;
      if (s !== undefined) apply(fromShared(s.view, size(), paneSize.current), s.view.fitted, false);
      else
        apply(
          fitted.current ? fitView(size(), paneSize.current) : clampView(view.current, size(), paneSize.current),
          fitted.current,
        );
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(pane);
    return () => observer.disconnect();
  }, []);

  // Another image: the same zoom, carried over.
  useLayoutEffect(() => {
    const from = image.current;
    image.current = { width, height };
    if (from.width === width && from.height === height) return;
    apply(carryView(view.current, fitted.current, from, image.current, paneSize.current), fitted.current);
  }, [width, height]);

  // Another pane zoomed or panned: draw the shared view here without sending it back.
  const shared = sync?.view;
  useLayoutEffect(() => {
    if (shared === undefined || shared === sent.current || paneSize.current.width === 0) return;
    apply(fromShared(shared, size(), paneSize.current), shared.fitted, false);
  }, [shared]);

  // A non-passive listener: the wheel zooms the image instead of scrolling the page.
  const wheelZoom = useEffectEvent(zoomBy);
  useEffect(() => {
    const pane = paneRef.current;
    if (pane === null) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const rect = pane.getBoundingClientRect();
      const delta = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
      wheelZoom(Math.exp(-delta * WHEEL_RATE), { x: event.clientX - rect.left, y: event.clientY - rect.top });
    };
    pane.addEventListener('wheel', onWheel, { passive: false });
    return () => pane.removeEventListener('wheel', onWheel);
  }, []);

  const local = (event: React.PointerEvent): Point => {
    const rect = paneRef.current!.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };

  const onPointerDown = (event: React.PointerEvent) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    // At fit a mouse drag is the desktop's drag-out; pinch and zoomed drags are ours.
    if (!zoomed && event.pointerType === 'mouse' && onDragOut !== undefined) return;
    event.preventDefault();
    // Captured, so a drag that leaves the pane still pans (a pointer the browser no longer tracks cannot be).
    try {
      paneRef.current?.setPointerCapture(event.pointerId);
    } catch {
      // The drag still works while it stays over the pane.
    }
    pointers.current.set(event.pointerId, local(event));
    const down = [...pointers.current.entries()];
    // The second pointer starts a pinch; it is measured from here.
    drag.current = down.length === 1 ? { start: view.current, from: down[0]![1], id: event.pointerId } : null;
    if (down.length === 2)
      pinch.current = { start: view.current, from: [down[0]![1], down[1]![1]], ids: [down[0]![0], down[1]![0]] };
  };

  const onPointerMove = (event: React.PointerEvent) => {
    const before = pointers.current.get(event.pointerId);
    if (before === undefined) return;
    const now = local(event);
    pointers.current.set(event.pointerId, now);
    lastDrag.current = event.timeStamp;
    const p = pinch.current;
    const d = drag.current;
    if (p === null) {
      if (d !== null && d.id === event.pointerId)
        apply(panBy(d.start, now.x - d.from.x, now.y - d.from.y, size(), paneSize.current));
      return;
    }
    const a = pointers.current.get(p.ids[0]);
    const b = pointers.current.get(p.ids[1]);
    if (a !== undefined && b !== undefined) apply(pinchView(p.start, p.from, [a, b], size(), paneSize.current));
  };

  const onPointerUp = (event: React.PointerEvent) => {
    if (pointers.current.has(event.pointerId)) onPointerMove(event);
    pointers.current.delete(event.pointerId);
    pinch.current = null;
    drag.current = null;
  };

  return (
    <div
      ref={paneRef}
      className={zoomed ? 'zoom-pane zoomed' : 'zoom-pane'}
      data-zoom={percent}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onDoubleClick={(e) => {
        // Double-click zooms to 1:1 where the person clicked; again, back to fit.
        if (e.timeStamp - lastDrag.current < 600) return;
        if (!fitted.current) return controls.fit();
        const rect = paneRef.current!.getBoundingClientRect();
        apply(
          zoomAround(
            view.current,
            1 / view.current.scale,
            { x: e.clientX - rect.left, y: e.clientY - rect.top },
            size(),
            paneSize.current,
          ),
        );
      }}
    >
      <img
        ref={imgRef}
        className="zoom-image"
        src={src}
        alt={alt}
        width={width}
        height={height}
        draggable={onDragOut !== undefined && !zoomed}
        onDragStart={(e) => {
          if (onDragOut === undefined) return e.preventDefault();
          e.preventDefault();
          onDragOut();
        }}
      />
      <div
        className="zoom-controls"
        role="toolbar"
        aria-label="Zoom"
        onPointerDown={(e) => e.stopPropagation()}
        onDoubleClick={(e) => e.stopPropagation()}
      >
        <button
          type="button"
          className="btn small"
          aria-label="Zoom out"
          title="Zoom out (−)"
          onClick={controls.zoomOut}
        >
          −
        </button>
        <output className="zoom-level" aria-label="Zoom level" aria-live="polite">
          {percent}%
        </output>
        <button type="button" className="btn small" aria-label="Zoom in" title="Zoom in (+)" onClick={controls.zoomIn}>
          +
        </button>
        <button
          type="button"
          className="btn small"
          aria-pressed={isFit}
          title="Fit the whole image (Ctrl+0)"
          onClick={controls.fit}
        >
          Fit
        </button>
        <button type="button" className="btn small" title="Actual pixels, centred (Ctrl+1)" onClick={controls.actual}>
          1:1
        </button>
      </div>
    </div>
  );
}
