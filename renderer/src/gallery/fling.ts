/** Faster than this (px per ms, ~2.5 screens a second) the grid draws frames for new rows instead of cards. */
export const FLING_SPEED = 2.5;
/** A fling ends when the scroll has been slower than FLING_SPEED (or still) for this long. */
export const FLING_SETTLE_MS = 120;
/** Consecutive fast scroll events that make a fling: one big jump (End, a scrollbar click) is not one. */
const FLING_STREAK = 2;

/** Tells a fling (a run of fast scroll events) from reading speed and from single jumps. */
export function createFlingDetector(start: { top: number; time: number }) {
  let lastTop = start.top;
  let lastTime = start.time;
  let streak = 0;
  return {
    /** Feeds one scroll event; true while it belongs to a fling. */
    sample(top: number, time: number): boolean {
      const speed = Math.abs(top - lastTop) / Math.max(1, time - lastTime);
      lastTop = top;
      lastTime = time;
      streak = speed >= FLING_SPEED ? streak + 1 : 0;
      return streak >= FLING_STREAK;
    },
  };
}
