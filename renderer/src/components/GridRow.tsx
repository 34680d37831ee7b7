import { memo } from 'react';
import { useLatch } from '../lib/use-latch';
import { JobCard } from './JobCard';

export interface GridRowProps {
  order: readonly string[];
  /** Index in `order` of the row's first card. */
  start: number;
  columns: number;
  cardWidth: number;
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
export const GridRow = memo(function GridRow({ order, start, columns, cardWidth, top, height, lite }: GridRowProps) {
  const full = useLatch(!lite);
  const ids = order.slice(start, start + columns);
  return (
    <div className="grid-row" role="listitem" style={{ transform: `translateY(${top}px)`, height }}>
      {ids.length === 0 ? (
        <p className="muted loading-more">Loading more…</p>
      ) : full ? (
        ids.map((id) => <JobCard key={id} id={id} width={cardWidth} />)
      ) : (
        ids.map((id) => <div key={id} className="card-frame" style={{ width: cardWidth, height: cardWidth }} aria-hidden="true" />)
      )}
    </div>
  );
});
