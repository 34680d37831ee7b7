import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSpendGate } from '../../../electron/spend/spend-gate.js';
import { toMicros } from '../../../electron/spend/money.js';
import { fakeClock, memoryCosts } from './memory-costs.js';

type Step =
  | { op: 'admit'; job: number; count: number; width: number }
  | { op: 'record'; job: number; reportedShare: number | null }
  | { op: 'release'; job: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    op: fc.constant('admit' as const),
    job: fc.integer({ min: 0, max: 15 }),
    count: fc.integer({ min: 1, max: 10 }),
    width: fc.constantFrom(512, 1024, 2048),
  }),
  // A reported cost at most the estimate (a provider billing more than its list price is outside the cap's promise).
  fc.record({
    op: fc.constant('record' as const),
    job: fc.integer({ min: 0, max: 15 }),
    reportedShare: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
  }),
  fc.record({ op: fc.constant('release' as const), job: fc.integer({ min: 0, max: 15 }) }),
);

describe('the spend gate, for any sequence of admits, records and releases', () => {
  it('the admitted estimates (recorded or running) never pass the cap', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), fc.integer({ min: 0, max: 2_000 }), (steps, capCents) => {
        const cap = capCents / 100;
        const costs = memoryCosts();
        const gate = createSpendGate({
          costs,
          clock: fakeClock(new Date(2026, 5, 10)),
          prices: () => ({}),
          capOf: () => cap,
          nameOf: () => 'FLUX',
        });
        /** The estimate each running job was admitted with, in micro-dollars. */
        const running = new Map<number, number>();
        const request = (s: { count: number; width: number }) => ({
          model: 'flux-2-pro',
          count: s.count,
          width: s.width,
          height: 1024,
        });
        const lastRequest = new Map<number, { count: number; width: number }>();
        for (const s of steps) {
          if (s.op === 'admit') {
            const answer = gate.admit(`j${s.job}`, 'bfl', 'bfl', request(s));
            if (answer.ok) {
              running.set(s.job, toMicros(answer.estimateUsd));
              lastRequest.set(s.job, s);
            } else running.delete(s.job);
          } else if (s.op === 'record') {
            const estimate = running.get(s.job);
            if (estimate === undefined) continue;
            const reported = s.reportedShare === null ? undefined : (estimate * s.reportedShare) / 1_000_000;
            gate.record(`j${s.job}`, 'bfl', 'bfl', 'flux-2-pro', request(lastRequest.get(s.job)!), {
              ...(reported === undefined ? {} : { costUsd: reported }),
            });
            running.delete(s.job);
          } else {
            gate.release(`j${s.job}`);
            running.delete(s.job);
          }
          const recorded = [...costs.entries.values()].reduce((sum, e) => sum + e.usdMicros, 0);
          const held = [...running.values()].reduce((sum, m) => sum + m, 0);
          expect(recorded + held).toBeLessThanOrEqual(toMicros(cap));
          expect(toMicros(gate.runningUsd('bfl'))).toBe(held);
        }
      }),
      { numRuns: 300 },
    );
  });
});
