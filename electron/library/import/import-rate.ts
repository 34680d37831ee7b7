/** Files per second over the last few seconds, and the time left at that pace. */
export function createRate(now: () => number, windowMs = 5_000) {
  const marks: Array<{ at: number; done: number }> = [];
  return {
    mark(done: number): void {
      const at = now();
      marks.push({ at, done });
      while (marks.length > 2 && marks[0]!.at < at - windowMs) marks.shift();
    },
    perSecond(): number | undefined {
      if (marks.length < 2) return undefined;
      const first = marks[0]!;
      const last = marks[marks.length - 1]!;
      const ms = last.at - first.at;
      return ms <= 0 ? undefined : ((last.done - first.done) * 1000) / ms;
    },
  };
}
