import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { gridLayout, CARD_GAP, stripRows, STRIP_HEIGHT } from '../lib/grid-layout';
import { createFlingDetector, FLING_SETTLE_MS } from '../lib/fling';
import { isTextField, keyToCommand, moveIndex } from '../lib/keyboard';
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
  const stripAfter = expandedIndex === -1 ? -1 : Math.floor(expandedIndex / layout.columns);
  const rows = useMemo(() => stripRows(stripAfter), [stripAfter]);
  const rowCount = layout.rows + (rows.stripAfter >= 0 ? 1 : 0) + (hasMore ? 1 : 0);

  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows.isStrip(i) ? STRIP_HEIGHT : layout.rowHeight),
    getItemKey: (i) => (rows.isStrip(i) ? 'strip' : rows.toData(i)),
    overscan: 2,
  });
  useEffect(() => virtualizer.measure(), [layout.rowHeight, rows.stripAfter, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const lastRow = rows.toData(items[items.length - 1]?.index ?? 0);
  // Once the person scrolls down, fetch a page ahead so a fast scroll rarely reaches the "Loading more" row. At the
  // top (first load, each search keystroke) only what is on screen: a prefetch there competed with the next keystroke.
  const scrolledDown = useApp((s) => s.jobs.holdArrivals);
  const prefetchRows = scrolledDown ? Math.ceil(NEXT_PAGE_SIZE / layout.columns) : 1;
  useEffect(() => {
    if (hasMore && lastRow >= layout.rows - prefetchRows) void loadMore();
  }, [hasMore, lastRow, layout.rows, loadMore, order.length, prefetchRows]);

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
      virtualizer.scrollToIndex(rows.toVirtual(Math.floor(index / layout.columns)), { align: 'auto' });
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
    [layout.columns, rows, store, virtualizer],
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
    const targets = () => {
      const chosen = selectedIds(state.selection, state.jobs.order);
      return chosen.includes(current) && chosen.length > 0 ? chosen : [current];
    };
    switch (command) {
      case 'prev':
      case 'next':
      case 'up':
      case 'down':
      case 'first':
      case 'last': {
        event.preventDefault();
        const index = moveIndex(command, state.jobs.order.indexOf(current), layout.columns, state.jobs.order.length);
        const id = state.jobs.order[index];
        if (id === undefined) return;
        if (event.shiftKey) state.click(id, { range: true, toggle: false });
        else state.setFocused(id);
        focusCard(id);
        return;
      }
      case 'open':
        // Enter on a focused card opens it; Space (the button's own click) selects.
        event.preventDefault();
        state.openViewer(current);
        return;
      case 'favorite': {
        event.preventDefault();
        const ids = targets();
        const allFavorite = ids.every((id) => state.jobs.byId[id]?.favorite);
        void state.setFavorite(ids, !allFavorite);
        return;
      }
      case 'delete': {
        event.preventDefault();
        const ids = targets();
        const index = state.jobs.order.indexOf(current);
        if (state.filters.view === 'trash') void state.restore(ids);
        else void state.trash(ids);
        // Keep the focus where the person was.
        const nextId = state.jobs.order.filter((id) => !ids.includes(id))[Math.min(index, state.jobs.order.length - ids.length - 1)];
        if (nextId !== undefined) {
          state.setFocused(nextId);
          focusCard(nextId);
        }
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
          <div className="grid-canvas" role="list" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((row) => {
              if (rows.isStrip(row.index) && expandedId !== null) {
                return (
                  <div key={row.key} className="grid-row strip-row" role="listitem" style={{ transform: `translateY(${row.start}px)`, height: STRIP_HEIGHT }}>
                    <ImageStrip id={expandedId} />
                  </div>
                );
              }
              return (
                <GridRow
                  key={row.key}
                  order={order}
                  start={rows.toData(row.index) * layout.columns}
                  columns={layout.columns}
                  cardWidth={layout.cardWidth}
                  top={row.start}
                  height={layout.rowHeight}
                  lite={flinging}
                />
              );
            })}
          </div>
        )}
      </div>
    </section>
  );
}
