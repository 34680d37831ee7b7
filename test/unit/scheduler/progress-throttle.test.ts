import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgressThrottle } from '../../../electron/scheduler/progress-throttle.js';

describe('progress throttle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('emits at most ~10 per second per job, latest value wins, and never loses the last tick', () => {
    const emitted: Array<[string, number]> = [];
    const throttle = createProgressThrottle<number>(
      (id, v) => emitted.push([id, v]),
      100,
      () => Date.now(),
    );
    // 1,000 ticks over one second for one job.
    for (let i = 1; i <= 1000; i += 1) {
      throttle.push('a', i);
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(200);
    expect(emitted.length).toBeLessThanOrEqual(11);
    expect(emitted.length).toBeGreaterThanOrEqual(9);
    expect(emitted.at(-1)).toEqual(['a', 1000]);
    const values = emitted.map(([, v]) => v);
    expect([...values].sort((x, y) => x - y)).toEqual(values);
  });

  it('throttles each job on its own', () => {
    const emitted: string[] = [];
    const throttle = createProgressThrottle<number>(
      (id) => emitted.push(id),
      100,
      () => Date.now(),
    );
    throttle.push('a', 1);
    throttle.push('b', 1);
    throttle.push('a', 2);
    throttle.push('b', 2);
    expect(emitted).toEqual(['a', 'b']);
    vi.advanceTimersByTime(100);
    expect(emitted).toEqual(['a', 'b', 'a', 'b']);
  });

  it('flush emits the pending value at once; drop forgets it', () => {
    const emitted: number[] = [];
    const throttle = createProgressThrottle<number>(
      (_, v) => emitted.push(v),
      100,
      () => Date.now(),
    );
    throttle.push('a', 1);
    throttle.push('a', 2);
    throttle.flush('a');
    expect(emitted).toEqual([1, 2]);
    throttle.push('b', 3);
    throttle.push('b', 4);
    throttle.drop('b');
    vi.advanceTimersByTime(500);
    expect(emitted).toEqual([1, 2, 3]);
    throttle.close();
  });
});
