/**
 * What every view of the history does the same way around its scroll box: fling detection, holding new arrivals
 * while the person reads further down, keeping one valid tab stop, and bringing a job's card or row into focus.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { RowModel } from './grid-rows';
import { createFlingDetector, FLING_SETTLE_MS } from './fling';
import { useApp } from '../store/context';
import type { AppStore } from '../store/store';

/** True while the person flings through the history faster than rows could load and paint. */
export function useFling(ref: React.RefObject<HTMLElement | null>): boolean {
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
    // Captured, so it runs before the virtualiser's own listener mounts the new rows: they mount light.
    element.addEventListener('scroll', onScroll, { passive: true, capture: true });
    return () => {
      element.removeEventListener('scroll', onScroll, { capture: true });
      clearTimeout(settle);
    };
  }, [ref]);
  return flinging;
}

/** Scrolled away from the top: hold new arrivals so nothing moves under the person. */
export function holdArrivalsOnScroll(store: AppStore, element: HTMLElement | null): void {
  const top = element?.scrollTop ?? 0;
  const holding = store.getState().jobs.holdArrivals;
  if (top > 48 && !holding) store.getState().holdArrivals(true);
  else if (top <= 48 && holding) store.getState().holdArrivals(false);
}

/**
 * One job always holds the view's tab stop: the first when none does (first load, the focused one removed), and a
 * tab stop on the newest job follows a new arrival to the top unless the keyboard is in the view right now.
 */
export function useTabStop(
  store: AppStore,
  order: readonly string[],
  scrollRef: React.RefObject<HTMLElement | null>,
): void {
  // A selector, not a render-time scan: the view re-renders on every scroll frame and the order may hold 60,000 ids.
  const focusValid = useApp((s) => s.focusedJobId !== null && s.jobs.order.includes(s.focusedJobId));
  const firstId = order[0];
  useEffect(() => {
    if (!focusValid && firstId !== undefined) store.getState().setFocused(firstId);
  }, [focusValid, firstId, store]);
  const previousFirst = useRef(firstId);
  useEffect(() => {
    const before = previousFirst.current;
    previousFirst.current = firstId;
    if (firstId === undefined || before === undefined || before === firstId) return;
    const state = store.getState();
    const inView = scrollRef.current?.contains(document.activeElement) === true;
    if (!inView && state.focusedJobId === before) state.setFocused(firstId);
  }, [firstId, scrollRef, store]);
}

/**
 * Scrolls a job's card (or row) into view and gives it the keyboard focus: now if it is mounted, so the next key
 * press already starts from it, else on the next frames once the scroll has mounted it.
 */
export function useFocusJob(
  store: AppStore,
  scrollRef: React.RefObject<HTMLElement | null>,
  rows: RowModel,
  scrollToRow: (row: number) => void,
): (id: string) => void {
  return useCallback(
    (id: string) => {
      const index = store.getState().jobs.order.indexOf(id);
      if (index === -1) return;
      const find = () => scrollRef.current?.querySelector<HTMLElement>(`[data-card="${CSS.escape(id)}"]`) ?? null;
      const mounted = find();
      scrollToRow(rows.rowOf(index));
      if (mounted !== null) return void mounted.focus({ preventScroll: true });
      const tryFocus = (attempt: number) => {
        const element = find();
        if (element !== null) element.focus();
        else if (attempt < 15) requestAnimationFrame(() => tryFocus(attempt + 1));
      };
      requestAnimationFrame(() => tryFocus(0));
    },
    [rows, scrollRef, scrollToRow, store],
  );
}
