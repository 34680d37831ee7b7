/**
 * Runs an async task for the latest value only, one at a time: a value pushed while a run is in flight waits for it,
 * and a newer push replaces the waiting one. Search as you type sends each keystroke at once when idle and never
 * queues a backlog of stale prefixes behind a slow answer.
 */
export function createLatestRunner<T>(run: (value: T) => Promise<void>) {
  let running = false;
  let waiting: { value: T } | null = null;
  const start = (value: T): void => {
    running = true;
    void run(value)
      .catch(() => undefined)
      .finally(() => {
        running = false;
        const next = waiting;
        waiting = null;
        if (next !== null) start(next.value);
      });
  };
  return {
    push(value: T): void {
      if (running) waiting = { value };
      else start(value);
    },
  };
}
