import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { gridLayout, CARD_GAP, HEADER_HEIGHT, STRIP_HEIGHT } from '../lib/grid-layout';
import { keyTargets, stepImage, visibleImages } from '../lib/curation';
import { dateBuckets, dateLabel } from '../lib/date-sections';
import { buildRows, moveVertical } from '../lib/grid-rows';
import { createFlingDetector, FLING_SETTLE_MS } from '../lib/fling';
import { isTextField, keyToCommand, moveIndex, ratingOfKey } from '../lib/keyboard';
import { mark } from '../lib/marks';
import { selectedIds } from '../lib/selection';
import { useApp, useAppStore } from '../store/context';
import { NEXT_PAGE_SIZE } from '../store/filters';
import { EmptyState } from './EmptyState';
import { ImageStrip } from './ImageStrip';
import { GridRow } from './GridRow';

const SKELETON_CARDS = 12;

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

/** True while the person flings through the history faster than cards could load and paint. */
function useFling(ref: React.RefObject<HTMLElement | null>): boolean {
  const [flinging, setFlinging] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (element === null) return;
    const detector = createFlingDetector({ top: element.scrollTop, time: performance.now() });
    let fast = false;
    let settle: ReturnType<typeof setTimeout> | undefined;
    const end = () => {
      fast = false;
      setFlinging(false);
    };
    const onScroll = () => {
      if (!detector.sample(element.scrollTop, performance.now())) return;
      if (!fast) {
        fast = true;
        setFlinging(true);
      }
      clearTimeout(settle);
      settle = setTimeout(end, FLING_SETTLE_MS);
    };
    // Registered before the virtualizer's own listener renders the new rows, so they mount as frames.
    element.addEventListener('scroll', onScroll, { passive: true, capture: true });
    return () => {
      element.removeEventListener('scroll', onScroll, { capture: true });
      clearTimeout(settle);
    };
  }, [ref]);
  return flinging;
}

export function HistoryGrid() {
  const store = useAppStore();
  const order = useApp((s) => s.jobs.order);
  const hasMore = useApp((s) => s.jobs.nextCursor !== null);
  const pending = useApp((s) => s.jobs.pendingTop.length);
  const historyState = useApp((s) => s.historyState);
  const loadMore = useApp((s) => s.loadMore);
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useWidth(scrollRef);
  const layout = gridLayout(width - 2 * CARD_GAP, order.length);
  const searchShown = useApp((s) => s.filters.search);

  // An expanded card (more than one image) gets a strip of its images in a row of its own beneath its row.
  const expandedId = useApp((s) => s.expandedId);
  const expandedImages = useApp((s) => (s.expandedId === null ? 0 : (s.jobs.byId[s.expandedId]?.images.length ?? 0)));
  const expandedIndex = useMemo(() => (expandedId === null || expandedImages < 2 ? -1 : order.indexOf(expandedId)), [order, expandedId, expandedImages]);
  // Date headers while the grid is in date order; a job's date never changes, so the order alone decides the rows.
  const byDate = useApp((s) => s.filters.sort === 'newest' || s.filters.sort === 'oldest');
  const rows = useMemo(() => {
    const byId = store.getState().jobs.byId;
    const buckets = dateBuckets(Date.now());
    const labelOf = byDate ? (i: number) => dateLabel(byId[order[i]!]?.createdAt ?? 0, buckets) : null;
    return buildRows({ length: order.length, columns: layout.columns, labelOf, expandedIndex, hasMore });
  }, [byDate, expandedIndex, hasMore, layout.columns, order, store]);
  const rowHeight = (i: number) => {
    const row = rows.rows[i];
    return row?.kind === 'header' ? HEADER_HEIGHT : row?.kind === 'strip' ? STRIP_HEIGHT : layout.rowHeight;
  };
  const rowKey = (i: number) => {
    const row = rows.rows[i];
    if (row === undefined) return i;
    return row.kind === 'header' ? `h:${row.label}` : row.kind === 'cards' ? `c:${order[row.start] ?? row.start}` : row.kind;
  };

  const virtualizer = useVirtualizer({
    count: rows.rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: rowHeight,
    getItemKey: rowKey,
    overscan: 2,
  });
  useEffect(() => virtualizer.measure(), [layout.rowHeight, rows, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const lastItem = items[items.length - 1]?.index ?? 0;
  const lastRow = rows.rows.length - 1 - lastItem;
  // Once the person scrolls down, fetch a page ahead so a fast scroll rarely reaches the "Loading more" row. At the
  // top (first load, each search keystroke) only what is on screen: a prefetch there competed with the next keystroke.
  const scrolledDown = useApp((s) => s.jobs.holdArrivals);
  const prefetchRows = scrolledDown ? Math.ceil(NEXT_PAGE_SIZE / layout.columns) : 1;
  // lastRow: how many rows lie below the last one mounted.
  useEffect(() => {
    if (hasMore && lastRow <= prefetchRows + 1) void loadMore();
  }, [hasMore, lastRow, loadMore, order.length, prefetchRows]);

  const firstShown = order.length > 0;
  useEffect(() => {
    if (firstShown) mark('grid-rendered');
  }, [firstShown]);

  const focusCard = useCallback(
    (id: string) => {
      const index = store.getState().jobs.order.indexOf(id);
      if (index === -1) return;
      const find = () => scrollRef.current?.querySelector<HTMLElement>(`[data-card="${id}"]`) ?? null;
      const mounted = find();
      virtualizer.scrollToIndex(rows.rowOf(index), { align: 'auto' });
      // A mounted card takes focus now, so the next key press already starts from it.
      if (mounted !== null) return void mounted.focus({ preventScroll: true });
      // The card mounts only after the scroll: focus on the next frames.
      const tryFocus = (attempt: number) => {
        const element = find();
        if (element !== null) element.focus();
        else if (attempt < 15) requestAnimationFrame(() => tryFocus(attempt + 1));
      };
      requestAnimationFrame(() => tryFocus(0));
    },
    [rows, store, virtualizer],
  );

  // A reveal (a toast's Show, a retry link) scrolls to the card, focuses it and flashes it once so the eye finds it.
  const revealed = useApp((s) => s.revealed);
  const revealedSeq = useRef(0);
  useEffect(() => {
    if (revealed === null || revealed.seq === revealedSeq.current) return;
    revealedSeq.current = revealed.seq;
    focusCard(revealed.id);
    const flash = (attempt: number) => {
      const card = scrollRef.current?.querySelector<HTMLElement>(`.card[data-id="${revealed.id}"]`);
      if (card) card.animate([{ boxShadow: '0 0 0 3px var(--focus)' }, { boxShadow: '0 0 0 3px var(--focus)', offset: 0.6 }, { boxShadow: '0 0 0 0 transparent' }], { duration: 1600, easing: 'ease-out' });
      else if (attempt < 15) requestAnimationFrame(() => flash(attempt + 1));
    };
    flash(0);
  }, [revealed, focusCard]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const command = keyToCommand(
      { key: event.key, ctrlKey: event.ctrlKey, metaKey: event.metaKey, shiftKey: event.shiftKey, altKey: event.altKey, inTextField: isTextField(event.target) },
      'grid',
    );
    if (command === null) return;
    // Enter on a card's own buttons (favorite, retry, show images) presses that button.
    if (command === 'open' && !(event.target instanceof HTMLElement && event.target.dataset.card !== undefined)) return;
    const state = store.getState();
    const current = state.focusedId ?? state.jobs.order[0] ?? null;
    if (current === null) return;
    const view = state.filters.view === 'trash' ? 'trash' : 'active';
    const chosen = () => selectedIds(state.selection, state.jobs.order);
    const targets = () => {
      const picked = chosen();
      return picked.includes(current) && picked.length > 0 ? picked : [current];
    };
    const moveTo = (id: string, imageId: string | null = null) => {
      state.focusImage(id, imageId);
      focusCard(id);
    };
    const imageTargets = () => keyTargets(state.jobs.byId, view, chosen(), { jobId: current, imageId: state.focusedImageId });
    switch (command) {
      case 'prev':
      case 'next': {
        event.preventDefault();
        if (event.shiftKey) {
          const id = state.jobs.order[moveIndex(command, state.jobs.order.indexOf(current), layout.columns, state.jobs.order.length)];
          if (id === undefined) return;
          state.click(id, { range: true, toggle: false });
          return moveTo(id);
        }
        // Left and right step through every image, card after card: culling visits each image once.
        const next = stepImage(state.jobs.order, state.jobs.byId, view, { jobId: current, imageId: state.focusedImageId }, command === 'next' ? 1 : -1);
        return moveTo(next.jobId, next.imageId);
      }
      case 'up':
      case 'down':
      case 'first':
      case 'last': {
        event.preventDefault();
        const from = state.jobs.order.indexOf(current);
        const index =
          command === 'up' || command === 'down' ? moveVertical(rows, from, command === 'down' ? 1 : -1) : moveIndex(command, from, layout.columns, state.jobs.order.length);
        const id = state.jobs.order[index];
        if (id === undefined) return;
        if (event.shiftKey) state.click(id, { range: true, toggle: false });
        return moveTo(id);
      }
      case 'open': {
        // Enter on a focused card opens it; Space (the button's own click) selects.
        event.preventDefault();
        const job = state.jobs.byId[current];
        const index = job === undefined ? 0 : Math.max(0, visibleImages(job, view).findIndex((i) => i.id === state.focusedImageId));
        state.openViewer(current, index);
        return;
      }
      case 'rate': {
        event.preventDefault();
        const rating = ratingOfKey(event.key);
        const picked = imageTargets();
        if (rating === null || picked.imageIds.length === 0) return;
        void state.rate({ images: picked }, rating);
        // Culling: one image rated, on to the next (a selection stays where it is).
        if (state.autoAdvance && picked.imageIds.length === 1) {
          const next = stepImage(state.jobs.order, state.jobs.byId, view, { jobId: current, imageId: picked.imageIds[0]! }, 1);
          moveTo(next.jobId, next.imageId);
        }
        return;
      }
      case 'favorite': {
        event.preventDefault();
        const picked = imageTargets();
        const images = picked.jobIds.flatMap((id) => state.jobs.byId[id]?.images ?? []).filter((i) => picked.imageIds.includes(i.id));
        void state.favoriteImages({ images: picked }, !images.every((i) => i.favorite === true));
        return;
      }
      case 'delete': {
        event.preventDefault();
        const ids = targets();
        const index = state.jobs.order.indexOf(current);
        const job = state.jobs.byId[current];
        const shown = job === undefined ? [] : visibleImages(job, view);
        // One image of a batch: it alone goes (or comes back); a whole card, or several, go as jobs.
        if (ids.length === 1 && job !== undefined && shown.length > 1 && (view === 'active' || job.trashedAt === null)) {
          const picked = imageTargets();
          const next = stepImage(state.jobs.order, state.jobs.byId, view, { jobId: current, imageId: picked.imageIds[0] ?? null }, 1);
          void (view === 'trash' ? state.restoreImages({ images: picked }) : state.trashImages({ images: picked }));
          state.focusImage(current, next.jobId === current ? next.imageId : null);
          return;
        }
        if (view === 'trash' && job !== undefined && job.trashedAt === null) void state.restoreImages({ images: imageTargets() });
        else if (state.filters.view === 'trash') void state.restore(ids);
        else void state.trash(ids);
        // Keep the focus where the person was.
        const nextId = state.jobs.order.filter((id) => !ids.includes(id))[Math.min(index, state.jobs.order.length - ids.length - 1)];
        if (nextId !== undefined) moveTo(nextId);
        return;
      }
      case 'selectAll':
        event.preventDefault();
        state.selectAllShown();
        return;
      case 'retry': {
        const job = state.jobs.byId[current];
        if (job !== undefined && ['failed', 'cancelled', 'interrupted'].includes(job.status)) void state.retry(current);
        return;
      }
      case 'close':
        state.clearSelection();
        return;
      default:
        return;
    }
  };
  const flinging = useFling(scrollRef);

  // The section at the top of the view stays named while its cards scroll under it; its own header takes over there.
  const scrollTop = virtualizer.scrollOffset ?? 0;
  const topItem = items.find((item) => item.end > scrollTop);
  const topRow = topItem === undefined ? undefined : rows.rows[topItem.index];
  const stickyLabel = !byDate || topItem === undefined || (topRow?.kind === 'header' && topItem.start >= scrollTop - 4) ? null : rows.labelAt(topItem.index);

  // Scrolled away from the top: hold new arrivals so nothing moves under the person.
  const onScroll = () => {
    const top = scrollRef.current?.scrollTop ?? 0;
    const holding = store.getState().jobs.holdArrivals;
    if (top > 48 && !holding) store.getState().holdArrivals(true);
    else if (top <= 48 && holding) store.getState().holdArrivals(false);
  };

  // If no card holds the tab stop (first load, or the focused one was removed), give it to the first card.
  // A selector, not a render-time scan: the grid re-renders on every scroll frame and the order may hold 60,000 ids.
  const focusValid = useApp((s) => s.focusedId !== null && s.jobs.order.includes(s.focusedId));
  const firstId = order[0];
  useEffect(() => {
    if (!focusValid && firstId !== undefined) store.getState().setFocused(firstId);
  }, [focusValid, firstId, store]);

  // A tab stop that sat on the newest card follows a new arrival to the top, unless the person is in the grid now.
  const previousFirst = useRef(firstId);
  useEffect(() => {
    const before = previousFirst.current;
    previousFirst.current = firstId;
    if (firstId === undefined || before === undefined || before === firstId) return;
    const state = store.getState();
    const inGrid = scrollRef.current?.contains(document.activeElement) === true;
    if (!inGrid && state.focusedId === before) state.setFocused(firstId);
  }, [firstId, store]);

  return (
    <section className="grid-section" aria-label="History">
      {pending > 0 ? (
        <button
          type="button"
          className="new-arrivals"
          onClick={() => {
            scrollRef.current?.scrollTo({ top: 0 });
            store.getState().showArrivals();
          }}
        >
          {pending} new — show
        </button>
      ) : null}
      <div className="grid-scroll" ref={scrollRef} onScroll={onScroll} onKeyDown={onKeyDown} aria-busy={historyState === 'loading'}
        data-results-for={historyState === 'ready' ? searchShown : undefined}
      >
        {historyState === 'loading' && order.length === 0 ? (
          <div className="grid-skeleton" aria-label="Loading history">
            {Array.from({ length: SKELETON_CARDS }, (_, i) => (
              <div key={i} className="card skeleton-card" style={{ width: layout.cardWidth }}>
                <div className="thumb skeleton" />
                <div className="skeleton line" />
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
                    <div key={item.key} className="grid-row date-header" role="listitem" style={{ transform: `translateY(${item.start}px)`, height: HEADER_HEIGHT }}>
                      <h2>{row.label}</h2>
                    </div>
                  );
                }
                if (row.kind === 'strip') {
                  return expandedId === null ? null : (
                    <div key={item.key} className="grid-row strip-row" role="listitem" style={{ transform: `translateY(${item.start}px)`, height: STRIP_HEIGHT }}>
                      <ImageStrip id={expandedId} />
                    </div>
                  );
                }
                return (
                  <GridRow
                    key={item.key}
                    order={order}
                    start={row.kind === 'cards' ? row.start : order.length}
                    columns={row.kind === 'cards' ? row.end - row.start : 0}
                    cardWidth={layout.cardWidth}
                    top={item.start}
                    height={layout.rowHeight}
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
