/**
 * Coalesces progress ticks per job: at most one emit per interval, latest wins, and the last tick is never lost
 * (a trailing emit fires when the interval ends).
 */
export interface ProgressThrottle<T> {
  push(jobId: string, value: T): void;
  /** Emits a pending value now (e.g. before a terminal event) and forgets the job. */
  flush(jobId: string): void;
  /** Forgets a job's pending value without emitting. */
  drop(jobId: string): void;
  close(): void;
}

interface Slot<T> {
  pending: T | undefined;
  lastEmit: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export function createProgressThrottle<T>(
  emit: (jobId: string, value: T) => void,
  intervalMs = 100,
  now: () => number = () => performance.now(),
): ProgressThrottle<T> {
  const slots = new Map<string, Slot<T>>();

  const fire = (jobId: string, slot: Slot<T>): void => {
    slot.timer = undefined;
    if (slot.pending === undefined) return;
    const value = slot.pending;
    slot.pending = undefined;
    slot.lastEmit = now();
    emit(jobId, value);
  };

  return {
    push(jobId, value) {
      let slot = slots.get(jobId);
      if (slot === undefined) {
        slot = { pending: undefined, lastEmit: -Infinity, timer: undefined };
        slots.set(jobId, slot);
      }
      slot.pending = value;
      if (slot.timer !== undefined) return;
      const wait = slot.lastEmit + intervalMs - now();
      if (wait <= 0) {
        fire(jobId, slot);
      } else {
        const s = slot;
        s.timer = setTimeout(() => fire(jobId, s), wait);
      }
    },
    flush(jobId) {
      const slot = slots.get(jobId);
      if (slot === undefined) return;
      if (slot.timer !== undefined) clearTimeout(slot.timer);
      fire(jobId, slot);
      slots.delete(jobId);
    },
    drop(jobId) {
      const slot = slots.get(jobId);
      if (slot?.timer !== undefined) clearTimeout(slot.timer);
      slots.delete(jobId);
    },
    close() {
      for (const slot of slots.values()) if (slot.timer !== undefined) clearTimeout(slot.timer);
      slots.clear();
    },
  };
}
