import { memo } from 'react';
import { useLatch } from '../common/use-latch';
import { JobCard } from './JobCard';

export interface GridRowProps {
  order: readonly string[];
  /** Index in `order` of the row's first card. */
  start: number;
  /** Each card's width at the row's height (its true aspect); as many cards as widths. */
  widths: readonly number[];
  top: number;
  height: number;
  /** Mounted during a fast fling: draw empty frames until the scroll slows, then the cards. */
  lite: boolean;
}

/**
 * One row of cards. Memoized on its slice of the order, so a scroll frame re-renders only the rows it mounts.
 * A row first mounted during a fling shows frames only (no image requests, no text layout); once it has shown
 * its cards it keeps them, so slowing down never makes a row flicker back to frames.
 */
export const GridRow = memo(function GridRow({ order, start, widths, top, height, lite }: GridRowProps) {
  const full = useLatch(!lite);
  const ids = order.slice(start, start + widths.length);
  return (
    <div className="grid-row" role="listitem" style={{ transform: `translateY(${top}px)`, height }}>
      {ids.length === 0 ? (
        <p className="muted loading-more">Loading more…</p>
      ) : full ? (
        ids.map((id, i) => <JobCard key={id} id={id} width={widths[i]!} height={height} />)
      ) : (
        ids.map((id, i) => (
          <div key={id} className="card-frame" style={{ width: widths[i], height }} aria-hidden="true" />
        ))
      )}
    </div>
  );
});
