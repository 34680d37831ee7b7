import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { LibraryModel } from '../../../shared/contract';
import { mark } from '../app/perf-marks';
import { useFling } from '../gallery/history-hooks';
import { ModelCard } from './ModelCard';
import { MODEL_CARD, modelGridLayout } from './model-grid-layout';

/** The cards in a scrolled box, only the rows near the view in the DOM (model-grid-layout.ts). */
export function ModelGrid({ items }: { items: readonly LibraryModel[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [box, setBox] = useState({ width: 0, height: 0 });
  // The scroll position rounded to the rows drawn: a scroll within them renders nothing.
  const [scrollTop, setScrollTop] = useState(0);
  // A fling's new cards wait for their pictures until it slows, as the gallery's rows do.
  const flinging = useFling(scroller);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el === null) return;
    // The cards fill the box inside its padding (models.css).
    const measure = () => {
      const style = getComputedStyle(el);
      const inner = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      setBox({ width: Math.max(0, inner), height: el.clientHeight });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  // Other filters are another list: it starts at its top (the scroll event brings the window with it).
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [items]);
  const layout = modelGridLayout(box.width, items.length, scrollTop, box.height);
  const drawn = box.width > 0 && items.length > 0;
  useEffect(() => {
    if (drawn) mark('models-drawn');
  }, [drawn]);
  const cards = [];
  if (box.width > 0) {
    for (let row = layout.firstRow; row < layout.endRow; row++) {
      for (let col = 0; col < layout.columns; col++) {
        const model = items[row * layout.columns + col];
        if (model === undefined) break;
        cards.push(
          <div role="listitem" key={model.key}>
            <ModelCard
              model={model}
              top={row * (layout.rowHeight + MODEL_CARD.gap)}
              left={col * (layout.cardWidth + MODEL_CARD.gap)}
              width={layout.cardWidth}
              height={layout.rowHeight}
              pictureHeight={layout.pictureHeight}
              lite={flinging}
            />
          </div>,
        );
      }
    }
  }
  return (
    <div
      ref={scroller}
      className="models-scroll"
      onScroll={(e) => {
        const top = e.currentTarget.scrollTop;
        const next = modelGridLayout(box.width, items.length, top, box.height);
        // Only a change of the rows drawn re-renders the grid.
        if (next.firstRow !== layout.firstRow || next.endRow !== layout.endRow) setScrollTop(top);
      }}
      tabIndex={-1}
    >
      <div className="models-canvas" role="list" aria-label="Models" style={{ height: layout.totalHeight }}>
        {cards}
      </div>
    </div>
  );
}
