import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLatestRunner } from '../../../../renderer/src/search/latest-runner';

function deferredRuns() {
  const started: string[] = [];
  const finish: (() => void)[] = [];
  const runner = createLatestRunner<string>(
    (value) =>
      new Promise<void>((resolve) => {
        started.push(value);
        finish.push(resolve);
      }),
  );
  const settle = async () => {
    finish.shift()?.();
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
  };
  return { runner, started, settle, inFlight: () => finish.length };
}

describe('latest-wins runner (search as you type)', () => {
  it('runs at once when idle, keeps only the newest value while busy, and runs it when the first ends', async () => {
    const { runner, started, settle } = deferredRuns();
    runner.push('f');
    expect(started).toEqual(['f']);
    runner.push('fo');
    runner.push('fox');
    expect(started).toEqual(['f']);
    await settle();
    expect(started).toEqual(['f', 'fox']);
    await settle();
    runner.push('foxe');
    expect(started).toEqual(['f', 'fox', 'foxe']);
  });

  it('a failed run does not stop the next', async () => {
    const started: string[] = [];
    const runner = createLatestRunner<string>(async (value) => {
      started.push(value);
      throw new Error('offline');
    });
    runner.push('a');
    runner.push('ab');
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
    expect(started).toEqual(['a', 'ab']);
  });

  it('whatever the interleaving of keystrokes and answers: one run at a time, and the last value typed always runs last', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }), async (steps) => {
        const { runner, started, settle, inFlight } = deferredRuns();
        let typed = '';
        for (const [i, isKey] of steps.entries()) {
          if (isKey) {
            typed += String.fromCharCode(97 + (i % 26));
            runner.push(typed);
          } else await settle();
          expect(inFlight()).toBeLessThanOrEqual(1);
        }
        while (inFlight() > 0) await settle();
        if (typed !== '') expect(started.at(-1)).toBe(typed);
        // Never the same value twice, never an older value after a newer one.
        expect(started.every((v, k) => k === 0 || v.length > started[k - 1]!.length)).toBe(true);
      }),
    );
  });
});
