import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { gridLayout, CARD_GAP, GRID_PADDING, HEADER_HEIGHT } from './grid-layout';
import { stripLayout } from './batch-layout';
import { MAX_ASPECT, MIN_ASPECT } from './card-aspect';
import { useCardAspects } from './use-card-aspects';
import { dateBuckets, dateLabel } from './date-sections';
import { buildRows, rowKeyOf, stickyLabelAt } from './grid-rows';
import { mark } from '../app/perf-marks';
import { useApp, useAppStore } from '../store/context';
import { NEXT_PAGE_SIZE } from '../store/filters';
import { EmptyState } from './EmptyState';
import { ImageStrip } from './ImageStrip';
import { GridRow } from './GridRow';
import { onGridKey } from './grid-keys';
import { NewArrivals } from './NewArrivals';
import { holdArrivalsOnScroll, useFling, useFocusJob, useTabStop } from './history-hooks';

const SKELETON_CARDS = 12;
const NO_WIDTHS: readonly number[] = [];

function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (element === null) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

export function HistoryGrid() {
  const store = useAppStore();
  const order = useApp((s) => s.jobs.order);
  const hasMore = useApp((s) => s.jobs.nextCursor !== null);
  const historyState = useApp((s) => s.historyState);
  const loadMore = useApp((s) => s.loadMore);
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useWidth(scrollRef);
  const thumbSize = useApp((s) => s.thumbSize);
  const usableWidth = width - 2 * GRID_PADDING;
  // Only the loading skeleton still uses square columns.
  const skeleton = gridLayout(usableWidth, SKELETON_CARDS, thumbSize);
  const view = useApp((s) => (s.filters.view === 'trash' ? 'trash' : 'active'));
  const aspects = useCardAspects(
    order,
    view,
    useApp((s) => s.jobs.holdArrivals),
  );
  const searchShown = useApp((s) => s.filters.search);

  // An expanded card (more than one image) gets a strip of its images in a row of its own beneath its row.
  const expandedId = useApp((s) => s.expandedId);
  const expandedImages = useApp((s) => (s.expandedId === null ? 0 : (s.jobs.byId[s.expandedId]?.images.length ?? 0)));
  // One picture's width over height: the strip draws each at its shape.
  const expandedAspect = useApp((s) => {
    const first = s.expandedId === null ? undefined : s.jobs.byId[s.expandedId]?.images[0];
    return first === undefined || first.width <= 0 || first.height <= 0
      ? 1
      : Math.min(MAX_ASPECT, Math.max(MIN_ASPECT, first.width / first.height));
  });
  const expandedIndex = useMemo(
    () => (expandedId === null || expandedImages < 2 ? -1 : order.indexOf(expandedId)),
    [order, expandedId, expandedImages],
  );
  // Date headers while the grid is in date order; a job's date never changes, so the order alone decides the rows.
  const byDate = useApp((s) => s.filters.sort === 'newest' || s.filters.sort === 'oldest');
  const rows = useMemo(() => {
    const byId = store.getState().jobs.byId;
    const buckets = dateBuckets(Date.now());
    const labelOf = byDate ? (i: number) => dateLabel(byId[order[i]!]?.createdAt ?? 0, buckets) : null;
    // Until the grid has been measured there is no width to justify against: no rows rather than a row per card.
    const length = usableWidth > 0 ? order.length : 0;
    const justify = { aspectOf: (i: number) => aspects[i] ?? 1, width: usableWidth, target: thumbSize, gap: CARD_GAP };
    return buildRows({ length, columns: 1, labelOf, expandedIndex, hasMore, justify });
  }, [aspects, byDate, expandedIndex, hasMore, order, store, thumbSize, usableWidth]);
  // Cards per row on average: how far a page of results reaches, and what Shift+arrows treat as a row.
  const columns = Math.max(
    1,
    Math.round(order.length / Math.max(1, rows.rows.filter((r) => r.kind === 'cards').length)),
  );
  // Expanding gives larger pictures: each in the strip taller than the whole card it came from.
  const expandedRow = expandedIndex < 0 ? undefined : rows.rows[rows.rowOf(expandedIndex)];
  const cardHeight = expandedRow?.kind === 'cards' ? (expandedRow.height ?? thumbSize) : thumbSize;
  const stripShape = useMemo(
    () => stripLayout(expandedImages, expandedAspect, usableWidth, cardHeight + 1),
    [cardHeight, expandedAspect, expandedImages, usableWidth],
  );
  const strip = stripShape.total;
  const rowHeight = (i: number) => {
    const row = rows.rows[i];
    if (row?.kind === 'cards') return (row.height ?? thumbSize) + CARD_GAP;
    return row?.kind === 'header' ? HEADER_HEIGHT : row?.kind === 'strip' ? strip : thumbSize + CARD_GAP;
  };
  const rowKey = (i: number) => rowKeyOf(rows, order, i);

  const virtualizer = useVirtualizer({
    count: rows.rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: rowHeight,
    getItemKey: rowKey,
    overscan: 2,
  });
  useEffect(() => virtualizer.measure(), [rows, strip, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const lastItem = items[items.length - 1]?.index ?? 0;
  const lastRow = rows.rows.length - 1 - lastItem;
  // Once the person scrolls down, fetch a page ahead so a fast scroll rarely reaches the "Loading more" row. At the
  // top (first load, each search keystroke) only what is on screen: a prefetch there competed with the next keystroke.
  const scrolledDown = useApp((s) => s.jobs.holdArrivals);
  const prefetchRows = scrolledDown ? Math.ceil(NEXT_PAGE_SIZE / columns) : 1;
  // lastRow: how many rows lie below the last one mounted.
  useEffect(() => {
    if (hasMore && lastRow <= prefetchRows + 1) void loadMore();
  }, [hasMore, lastRow, loadMore, order.length, prefetchRows]);

  const firstShown = order.length > 0;
  useEffect(() => {
    if (firstShown) mark('grid-rendered');
  }, [firstShown]);

  const scrollToRow = useCallback((row: number) => virtualizer.scrollToIndex(row, { align: 'auto' }), [virtualizer]);
  const focusCard = useFocusJob(store, scrollRef, rows, scrollToRow);

  // A reveal (a toast's Show, a retry link) scrolls to the card, focuses it and flashes it once so the eye finds it.
  const revealed = useApp((s) => s.revealed);
  const revealedSeq = useRef(0);
  useEffect(() => {
    if (revealed === null || revealed.seq === revealedSeq.current) return;
    revealedSeq.current = revealed.seq;
    focusCard(revealed.id);
    const flash = (attempt: number) => {
      const card = scrollRef.current?.querySelector<HTMLElement>(`.card[data-id="${revealed.id}"]`);
      if (card)
        card.animate(
          [
            { boxShadow: '0 0 0 3px var(--focus)' },
            { boxShadow: '0 0 0 3px var(--focus)', offset: 0.6 },
            { boxShadow: '0 0 0 0 transparent' },
          ],
          { duration: 1600, easing: 'ease-out' },
        );
      else if (attempt < 15) requestAnimationFrame(() => flash(attempt + 1));
    };
    flash(0);
  }, [revealed, focusCard]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => onGridKey(event, { store, rows, columns, focusCard });

  const flinging = useFling(scrollRef);

  const stickyLabel = stickyLabelAt(rows, items, virtualizer.scrollOffset ?? 0, byDate);

  const onScroll = () => holdArrivalsOnScroll(store, scrollRef.current);

  useTabStop(store, order, scrollRef);

  return (
    <section className="grid-section" id="history" aria-label="History">
      <NewArrivals scrollRef={scrollRef} />
      <div
        className="grid-scroll"
        ref={scrollRef}
        onScroll={onScroll}
        onKeyDown={onKeyDown}
        aria-busy={historyState === 'loading'}
        data-results-for={historyState === 'ready' ? searchShown : undefined}
      >
        {historyState === 'loading' && order.length === 0 ? (
          <div className="grid-skeleton" aria-label="Loading history">
            {Array.from({ length: SKELETON_CARDS }, (_, i) => (
              <div key={i} className="card skeleton-card" style={{ width: skeleton.cardWidth }}>
                <div className="thumb skeleton" />
              </div>
            ))}
          </div>
        ) : order.length === 0 ? (
          <EmptyState />
        ) : (
          <>
            {stickyLabel === null ? null : (
              <div className="date-sticky" aria-hidden="true">
                <span>{stickyLabel}</span>
              </div>
            )}
            <div className="grid-canvas" role="list" style={{ height: virtualizer.getTotalSize() }}>
              {items.map((item) => {
                const row = rows.rows[item.index];
                if (row === undefined) return null;
                if (row.kind === 'header') {
                  return (
                    <div
                      key={item.key}
                      className="grid-row date-header"
                      role="listitem"
                      style={{ transform: `translateY(${item.start}px)`, height: HEADER_HEIGHT }}
                    >
                      <h2>{row.label}</h2>
                    </div>
                  );
                }
                if (row.kind === 'strip') {
                  return expandedId === null ? null : (
                    <div
                      key={item.key}
                      className="grid-row strip-row"
                      role="listitem"
                      style={{ transform: `translateY(${item.start}px)`, height: strip }}
                    >
                      <ImageStrip id={expandedId} layout={stripShape} />
                    </div>
                  );
                }
                return (
                  <GridRow
                    key={item.key}
                    order={order}
                    start={row.kind === 'cards' ? row.start : order.length}
                    widths={row.kind === 'cards' ? (row.widths ?? NO_WIDTHS) : NO_WIDTHS}
                    top={item.start}
                    height={row.kind === 'cards' ? (row.height ?? thumbSize) : thumbSize}
                    lite={flinging}
                  />
                );
              })}
            </div>
          </>
        )}
      </div>
    </section>
  );
}
