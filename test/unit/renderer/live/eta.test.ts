import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ETA_START,
  estimate,
  formatEtaShort,
  observe,
  progressOf,
  type EtaState,
} from '../../../../renderer/src/live/eta';

/** Feeds step ticks (step i of `steps` at time at[i]) and returns the state after each. */
function run(steps: number, times: readonly number[], from = 1): EtaState[] {
  const states: EtaState[] = [];
  let state = ETA_START;
  times.forEach((at, i) => {
    state = observe(state, progressOf({ step: from + i, steps }), at);
    states.push(state);
  });
  return states;
}

/** Strictly increasing times: a start and positive gaps. */
const times = (min: number, max: number) =>
  fc
    .tuple(
      fc.integer({ min: 0, max: 1_000_000 }),
      fc.array(fc.integer({ min: 1, max: 5_000 }), { minLength: min, maxLength: max }),
    )
    .map(([start, gaps]) => {
      const out = [start];
      for (const gap of gaps) out.push(out.at(-1)! + gap);
      return out;
    });

describe('progress of a tick', () => {
  it('is the fraction when there is one, else step over steps, else unknown', () => {
    expect(progressOf({ fraction: 0.25, step: 9, steps: 10 })).toBe(0.25);
    expect(progressOf({ step: 3, steps: 12 })).toBe(0.25);
    expect(progressOf({ step: 3 })).toBeNull();
    expect(progressOf({ step: 3, steps: 0 })).toBeNull();
    expect(progressOf({})).toBeNull();
    expect(progressOf(undefined)).toBeNull();
  });
});

describe('the ETA', () => {
  it('is null until the rate has been measured across two steps', () => {
    const [first, second, third] = run(20, [1_000, 2_000, 3_000]);
    expect(estimate(first!, 1_000)).toBeNull();
    expect(estimate(second!, 2_000)).toBeNull();
    // Three ticks at 1 s a step, step 3 of 20: 17 steps left.
    expect(estimate(third!, 3_000)).toBeCloseTo(17_000, 6);
  });

  it('is null for ticks that carry no progress at all (a stage, "queued")', () => {
    fc.assert(
      fc.property(times(0, 20), (ts) => {
        let state = ETA_START;
        for (const at of ts) state = observe(state, progressOf({ step: 4 }), at);
        expect(state).toBe(ETA_START);
        expect(estimate(state, ts.at(-1)!)).toBeNull();
      }),
    );
  });

  it('at a steady rate, is the true time left at every step, and never rises', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 200 }),
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (steps, msPerStep, start) => {
          const ts = Array.from({ length: steps }, (_, i) => start + i * msPerStep);
          const etas = run(steps, ts).map((s, i) => estimate(s, ts[i]!));
          etas.slice(2).forEach((eta, i) => {
            const stepNow = i + 3;
            expect(eta).toBeCloseTo((steps - stepNow) * msPerStep, 3);
          });
          for (let i = 3; i < etas.length; i += 1) expect(etas[i]!).toBeLessThanOrEqual(etas[i - 1]! + 1e-6);
          expect(etas.at(-1)).toBeCloseTo(0, 6);
        },
      ),
    );
  });

  it('lies between the fastest and slowest pace seen, never negative', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 100 }), times(2, 60), (total, ts) => {
        const steps = Math.max(total, ts.length);
        const states = run(steps, ts);
        const paces = ts.slice(1).map((at, i) => at - ts[i]!);
        const fastest = Math.min(...paces);
        const slowest = Math.max(...paces);
        states.forEach((state, i) => {
          const eta = estimate(state, ts[i]!);
          if (i < 2) return expect(eta).toBeNull();
          const left = steps - (i + 1);
          expect(eta).not.toBeNull();
          expect(eta!).toBeGreaterThanOrEqual(left * fastest - 1e-6);
          expect(eta!).toBeLessThanOrEqual(left * slowest + 1e-6);
        });
      }),
    );
  });

  it('counts down between ticks, is never negative, and is dropped once long overdue', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            done: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
            gap: fc.integer({ min: -50, max: 30_000 }),
          }),
          { maxLength: 40 },
        ),
        fc.integer({ min: 0, max: 120_000 }),
        (readings, later) => {
          let state = ETA_START;
          let at = 0;
          for (const r of readings) {
            at += r.gap;
            state = observe(state, r.done, at);
            const eta = estimate(state, at);
            if (eta !== null) expect(eta).toBeGreaterThanOrEqual(0);
            const after = estimate(state, at + later);
            if (after !== null) {
              expect(after).toBeGreaterThanOrEqual(0);
              expect(eta).not.toBeNull();
              expect(after).toBeLessThanOrEqual(eta!);
            }
          }
        },
      ),
    );
    // 10 steps of 1 s, 2 steps done... then nothing for a minute: no honest number.
    const states = run(10, [0, 1_000, 2_000]);
    expect(estimate(states[2]!, 2_000)).toBeCloseTo(7_000, 6);
    expect(estimate(states[2]!, 6_000)).toBeCloseTo(3_000, 6);
    // Past the estimate but not yet overdue: "almost done", not a negative time.
    expect(estimate(states[2]!, 9_500)).toBe(0);
    expect(estimate(states[2]!, 60_000)).toBeNull();
  });

  it('takes a move too small to measure (a rounding step) as no move, never an infinite rate', () => {
    let state = ETA_START;
    [0, 5e-324, 1e-323, 1e-12].forEach((done, i) => (state = observe(state, done, i)));
    expect(state.moves).toBe(0);
    expect(estimate(state, 3)).toBeNull();
  });

  it('starts over when progress falls back (the next image of a batch), null again until two steps', () => {
    const first = run(10, [0, 1_000, 2_000, 3_000]).at(-1)!;
    expect(estimate(first, 3_000)).toBeCloseTo(6_000, 6);
    const restarted = observe(first, progressOf({ step: 1, steps: 10 }), 4_000);
    expect(estimate(restarted, 4_000)).toBeNull();
  });

  it('a slower step raises the estimate only part of the way (smoothed)', () => {
    const steady = run(100, [0, 1_000, 2_000, 3_000]).at(-1)!;
    const slow = observe(steady, progressOf({ step: 5, steps: 100 }), 5_000);
    const eta = estimate(slow, 5_000)!;
    // The last step took 2 s after three of 1 s: the estimate moves towards 2 s a step, well short of it.
    expect(eta).toBeGreaterThan(95 * 1_100);
    expect(eta).toBeLessThan(95 * 1_800);
  });
});

describe('formatting the ETA', () => {
  it('reads as a person would say it', () => {
    expect(formatEtaShort(null)).toBeNull();
    expect(formatEtaShort(400)).toBe('almost done');
    expect(formatEtaShort(12_300)).toBe('~12 s left');
    expect(formatEtaShort(59_400)).toBe('~59 s left');
    expect(formatEtaShort(200_000)).toBe('~3 min left');
    expect(formatEtaShort(3_900_000)).toBe('~1 h 05 min left');
  });

  it('gives text for every known non-negative time, and a longer time never reads as fewer seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 59_000 }), fc.integer({ min: 0, max: 59_000 }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const secs = (text: string | null) => (text === 'almost done' ? 0 : Number(/~(\d+) s/.exec(text ?? '')?.[1]));
        expect(secs(formatEtaShort(lo))).toBeLessThanOrEqual(secs(formatEtaShort(hi)));
      }),
    );
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e9, noNaN: true }), (ms) => {
        expect(formatEtaShort(ms)).toMatch(/^(almost done|~\d+ (s|min) left|~\d+ h \d\d min left)$/);
      }),
    );
    expect(formatEtaShort(-1)).toBeNull();
    expect(formatEtaShort(Number.NaN)).toBeNull();
  });
});
