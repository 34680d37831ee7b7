import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { DEFAULT_STRENGTH } from './iterate';
import {
  clearMask,
  coverage,
  createMask,
  invertMask,
  strokeLine,
  tintPixels,
  toSourcePoint,
  UndoStack,
  type Mask,
  type Rect,
} from './mask-brush';
import { useApp, useAppStore } from '../store/context';
import './iterate.css';

const TINT = [255, 56, 120, 130] as const;

/** The largest box of the image's shape that fits the stage. */
function fitBox(
  width: number,
  height: number,
  stage: { width: number; height: number },
): { width: number; height: number } {
  const scale = Math.min(stage.width / width, stage.height / height);
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

/**
 * Paints the area to repaint over the image: a tint on a canvas at the source's own resolution, scaled to fit.
 * Pointer (mouse, pen, touch) or keyboard (arrows move the brush, Space paints); Ctrl+Z undoes; Repaint sends it.
 */
export function MaskBrush({
  jobId,
  imageId,
  src,
  width,
  height,
  prompt,
}: {
  jobId: string;
  imageId: string;
  src: string;
  width: number;
  height: number;
  prompt: string;
}) {
  const store = useAppStore();
  const busy = useApp((s) => s.iterating);
  const composerPrompt = useApp((s) => s.draft.prompt);
  const maskRef = useRef<Mask>(createMask(width, height));
  const undoRef = useRef(new UndoStack());
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const lastRef = useRef<{ x: number; y: number } | null>(null);
  const [box, setBox] = useState({ width: 1, height: 1 });
  const [radius, setRadius] = useState(() => Math.max(4, Math.round(Math.max(width, height) / 24)));
  const [erase, setErase] = useState(false);
  const [strength, setStrength] = useState(DEFAULT_STRENGTH);
  // The edit's own prompt, editable here; it starts from the composer's, or the source's when that is empty.
  const [editPrompt, setEditPrompt] = useState(() => (composerPrompt.trim() === '' ? prompt : composerPrompt));
  const [covered, setCovered] = useState(0);
  const [steps, setSteps] = useState(0);
  const [cursor, setCursor] = useState<{ x: number; y: number } | null>(null);
  const [keyCursor, setKeyCursor] = useState({ x: width / 2, y: height / 2 });
  const maxRadius = Math.max(8, Math.round(Math.max(width, height) / 4));

  const draw = useCallback(
    (rect: Rect | null) => {
      const ctx = canvasRef.current?.getContext('2d');
      if (ctx === null || ctx === undefined) return;
      const area = rect ?? { x: 0, y: 0, width, height };
      if (area.width <= 0 || area.height <= 0) return;
      ctx.putImageData(new ImageData(tintPixels(maskRef.current, area, TINT), area.width, area.height), area.x, area.y);
    },
    [width, height],
  );

  const changed = () => {
    setCovered(coverage(maskRef.current));
    setSteps(undoRef.current.size);
  };

  useLayoutEffect(() => {
    const stage = stageRef.current;
    if (stage === null) return;
    const measure = () =>
      setBox(fitBox(width, height, { width: stage.clientWidth - 16, height: stage.clientHeight - 16 }));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(stage);
    return () => observer.disconnect();
  }, [width, height]);

  useEffect(() => {
    // A new image: a fresh mask, nothing to undo.
    maskRef.current = createMask(width, height);
    undoRef.current = new UndoStack();
    draw(null);
    changed();
  }, [imageId, width, height, draw]);

  const sourcePoint = (event: React.PointerEvent) => {
    const rect = canvasRef.current!.getBoundingClientRect();
    return toSourcePoint({ x: event.clientX - rect.left, y: event.clientY - rect.top }, rect, maskRef.current);
  };

  const paintAt = (from: { x: number; y: number }, to: { x: number; y: number }) =>
    draw(strokeLine(maskRef.current, from, to, radius, erase));

  const whole = (change: (mask: Mask) => void) => {
    undoRef.current.push(maskRef.current);
    change(maskRef.current);
    draw(null);
    changed();
  };
  const undo = () => {
    if (undoRef.current.undo(maskRef.current)) {
      draw(null);
      changed();
    }
  };
  const close = () => store.getState().closeEditor();
  const repaint = () => {
    if (covered === 0 || busy) return;
    void store.getState().repaint(jobId, imageId, maskRef.current, strength, editPrompt);
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    const mod = event.ctrlKey || event.metaKey;
    // The brush owns its keys: none reach the viewer (no image change, no rating) while it is open.
    event.stopPropagation();
    // Ctrl+Z in the prompt box undoes typing, not the mask.
    const inText = event.target instanceof HTMLTextAreaElement;
    if (mod && !inText && (event.key === 'z' || event.key === 'Z')) {
      event.preventDefault();
      undo();
    } else if (mod && event.key === 'Enter') {
      event.preventDefault();
      repaint();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  };

  const onCanvasKey = (event: React.KeyboardEvent) => {
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
    };
    const move = moves[event.key];
    if (move !== undefined) {
      event.preventDefault();
      const step = Math.max(1, radius / 2);
      setKeyCursor((c) => {
        const next = {
          x: Math.min(width, Math.max(0, c.x + move[0] * step)),
          y: Math.min(height, Math.max(0, c.y + move[1] * step)),
        };
        // Shift+arrow paints along the way.
        if (event.shiftKey) paintAt(c, next);
        return next;
      });
      if (event.shiftKey) changed();
    } else if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) return;
      undoRef.current.push(maskRef.current);
      paintAt(keyCursor, keyCursor);
      changed();
    } else if (event.key === 'Shift' && !event.repeat) {
      undoRef.current.push(maskRef.current);
    }
  };

  const scale = box.width / width;
  const shownCursor = cursor ?? keyCursor;

  return (
    <div className="mask-brush" onKeyDown={onKeyDown} role="region" aria-label="Mask brush: paint the area to repaint">
      <div className="mask-toolbar" role="toolbar" aria-label="Brush">
        <label className="mask-size">
          <span>Brush {radius * 2} px</span>
          <input
            type="range"
            min={1}
            max={maxRadius}
            value={radius}
            aria-label="Brush size"
            onChange={(e) => setRadius(Number(e.target.value))}
          />
        </label>
        <button
          type="button"
          className="btn small"
          aria-pressed={!erase}
          onClick={() => setErase(false)}
          title="Paint the area to repaint"
        >
          Paint
        </button>
        <button
          type="button"
          className="btn small"
          aria-pressed={erase}
          onClick={() => setErase(true)}
          title="Take paint away"
        >
          Erase
        </button>
        <button
          type="button"
          className="btn small"
          onClick={() => whole(invertMask)}
          title="Repaint everything but what is painted"
        >
          Invert
        </button>
        <button
          type="button"
          className="btn small"
          onClick={() => whole(clearMask)}
          disabled={covered === 0}
          title="Take all the paint away"
        >
          Clear
        </button>
        <button
          type="button"
          className="btn small"
          onClick={undo}
          disabled={steps === 0}
          aria-keyshortcuts="Control+Z"
          title="Undo (Ctrl+Z)"
        >
          Undo
        </button>
        <span className="muted small mask-coverage" aria-live="polite">
          {covered === 0 ? 'Nothing painted yet' : `${Math.max(1, Math.round(covered * 100))}% to repaint`}
        </span>
        {/* Up here with the tools, clear of the toasts in the corner below. */}
        <span className="spacer" />
        <button type="button" className="btn small" onClick={close}>
          Cancel
        </button>
        <button
          type="button"
          className="btn small primary"
          onClick={repaint}
          aria-disabled={covered === 0 || busy}
          title={covered === 0 ? 'Paint the area to repaint first' : 'Repaint the painted area (Ctrl+Enter)'}
          aria-keyshortcuts="Control+Enter"
        >
          {busy ? 'Queuing…' : 'Repaint'}
        </button>
      </div>
      <div className="mask-stage" ref={stageRef}>
        <div className="mask-box" style={{ width: box.width, height: box.height }}>
          <img src={src} alt="" width={box.width} height={box.height} draggable={false} />
          <canvas
            ref={canvasRef}
            width={width}
            height={height}
            tabIndex={0}
            role="img"
            aria-label={`Mask over the image, ${width} × ${height}. Arrows move the brush, Space paints, Shift+arrows paint a line, Ctrl+Z undoes.`}
            style={{ width: box.width, height: box.height }}
            onKeyDown={onCanvasKey}
            onPointerDown={(e) => {
              if (e.button !== 0) return;
              // Captured, a stroke that leaves the canvas keeps painting to its edge; a pen or finger the browser no longer tracks cannot be.
              try {
                e.currentTarget.setPointerCapture(e.pointerId);
              } catch {
                // Painting goes on without the capture.
              }
              undoRef.current.push(maskRef.current);
              const p = sourcePoint(e);
              lastRef.current = p;
              paintAt(p, p);
            }}
            onPointerMove={(e) => {
              const p = sourcePoint(e);
              setCursor(p);
              if (lastRef.current === null) return;
              paintAt(lastRef.current, p);
              lastRef.current = p;
            }}
            onPointerUp={() => {
              lastRef.current = null;
              changed();
            }}
            onPointerCancel={() => {
              lastRef.current = null;
              changed();
            }}
            onPointerLeave={() => setCursor(null)}
          />
          <span
            className={erase ? 'mask-cursor erase' : 'mask-cursor'}
            aria-hidden="true"
            style={{
              left: shownCursor.x * scale,
              top: shownCursor.y * scale,
              width: radius * 2 * scale,
              height: radius * 2 * scale,
            }}
          />
        </div>
      </div>
      <div className="mask-footer">
        <label className="mask-strength">
          <span>Strength {strength.toFixed(2)}</span>
          <input
            type="range"
            min={0}
            max={1}
            step={0.05}
            value={strength}
            aria-label="Repaint strength"
            onChange={(e) => setStrength(Number(e.target.value))}
          />
        </label>
        <label className="small mask-prompt">
          <span className="muted">Prompt for this edit</span>
          <textarea
            rows={2}
            value={editPrompt}
            placeholder={prompt === '' ? 'Describe what to paint' : `Empty: the source’s, ${prompt}`}
            onChange={(e) => setEditPrompt(e.target.value)}
          />
        </label>
      </div>
    </div>
  );
}
