import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { dateBuckets, dateLabel } from './date-sections';
import { buildRows, rowKeyOf, stickyLabelAt } from './grid-rows';
import { LIST_HEADER_HEIGHT, LIST_ROW_HEIGHT } from './list-row';
import { useApp, useAppStore } from '../store/context';
import { NEXT_PAGE_SIZE } from '../store/filters';
import { EmptyState } from './EmptyState';
import { ListRow } from './ListRow';
import { onGridKey } from './grid-keys';
import { NewArrivals } from './NewArrivals';
import { holdArrivalsOnScroll, useFling, useFocusJob, useTabStop } from './history-hooks';
import './list.css';

const SKELETON_ROWS = 10;

/**
 * The history as a compact list, one row per job, for people who want the text: the grid's order, selection, keys
 * and date sections, read as one column of the grid's own row model.
 */
export function HistoryList() {
  const store = useAppStore();
  const order = useApp((s) => s.jobs.order);
  const hasMore = useApp((s) => s.jobs.nextCursor !== null);
  const historyState = useApp((s) => s.historyState);
  const loadMore = useApp((s) => s.loadMore);
  const searchShown = useApp((s) => s.filters.search);
  const scrollRef = useRef<HTMLDivElement>(null);

  // Date headers while the list is in date order; a job's date never changes, so the order alone decides the rows.
  const byDate = useApp((s) => s.filters.sort === 'newest' || s.filters.sort === 'oldest');
  const rows = useMemo(() => {
    const byId = store.getState().jobs.byId;
    const buckets = dateBuckets(Date.now());
    const labelOf = byDate ? (i: number) => dateLabel(byId[order[i]!]?.createdAt ?? 0, buckets) : null;
    return buildRows({ length: order.length, columns: 1, labelOf, expandedIndex: -1, hasMore });
  }, [byDate, hasMore, order, store]);

  const rowKey = (i: number) => rowKeyOf(rows, order, i);
  const virtualizer = useVirtualizer({
    count: rows.rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows.rows[i]?.kind === 'header' ? LIST_HEADER_HEIGHT : LIST_ROW_HEIGHT),
    getItemKey: rowKey,
    overscan: 6,
  });
  useEffect(() => virtualizer.measure(), [rows, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const lastItem = items[items.length - 1]?.index ?? 0;
  // How many rows lie below the last one mounted; a page ahead once the person scrolls down, as the grid does.
  const below = rows.rows.length - 1 - lastItem;
  const scrolledDown = useApp((s) => s.jobs.holdArrivals);
  const prefetchRows = scrolledDown ? NEXT_PAGE_SIZE : 1;
  useEffect(() => {
    if (hasMore && below <= prefetchRows + 1) void loadMore();
  }, [below, hasMore, loadMore, order.length, prefetchRows]);

  const scrollToRow = useCallback((row: number) => virtualizer.scrollToIndex(row, { align: 'auto' }), [virtualizer]);
  const focusRow = useFocusJob(store, scrollRef, rows, scrollToRow);

  // A reveal (a toast's Show, a retry link) scrolls to the row and focuses it.
  const revealed = useApp((s) => s.revealed);
  const revealedSeq = useRef(revealed?.seq ?? 0);
  useEffect(() => {
    if (revealed === null || revealed.seq === revealedSeq.current) return;
    revealedSeq.current = revealed.seq;
    focusRow(revealed.id);
  }, [revealed, focusRow]);

  useTabStop(store, order, scrollRef);
  const flinging = useFling(scrollRef);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) =>
    onGridKey(event, { store, rows, columns: 1, focusCard: focusRow });

  const stickyLabel = stickyLabelAt(rows, items, virtualizer.scrollOffset ?? 0, byDate);

  return (
    <section className="list-section" id="history" aria-label="History">
      <NewArrivals scrollRef={scrollRef} />
      <div
        className="list-scroll"
        ref={scrollRef}
        onScroll={() => holdArrivalsOnScroll(store, scrollRef.current)}
        onKeyDown={onKeyDown}
        aria-busy={historyState === 'loading'}
        data-results-for={historyState === 'ready' ? searchShown : undefined}
      >
        {historyState === 'loading' && order.length === 0 ? (
          <div className="list-skeleton" aria-label="Loading history">
            {Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <div key={i} className="list-skeleton-row">
                <span className="list-thumb skeleton" />
                <span className="skeleton line" />
              </div>
            ))}
          </div>
        ) : order.length === 0 ? (
          <EmptyState />
        ) : (
          <>
            {stickyLabel === null ? null : (
              <div className="list-sticky" aria-hidden="true">
                <span>{stickyLabel}</span>
              </div>
            )}
            <div className="list-canvas" role="list" aria-label="Jobs" style={{ height: virtualizer.getTotalSize() }}>
              {items.map((item) => {
                const row = rows.rows[item.index];
                if (row === undefined) return null;
                if (row.kind === 'header') {
                  return (
                    <div
                      key={item.key}
                      className="list-header"
                      role="listitem"
                      style={{ transform: `translateY(${item.start}px)`, height: LIST_HEADER_HEIGHT }}
                    >
                      <h2>{row.label}</h2>
                    </div>
                  );
                }
                if (row.kind === 'cards') {
                  const id = order[row.start];
                  return id === undefined ? null : <ListRow key={item.key} id={id} top={item.start} lite={flinging} />;
                }
                return (
                  <div
                    key={item.key}
                    className="list-more"
                    role="listitem"
                    style={{ transform: `translateY(${item.start}px)`, height: LIST_ROW_HEIGHT }}
                  >
                    <p className="muted">Loading more…</p>
                  </div>
                );
              })}
            </div>
          </>
        )}
      </div>
    </section>
  );
}
