import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createReadBudget } from '../../../../electron/library/originals/read-budget.js';

describe('the read budget', () => {
  it('holds a read back until the bytes before it are released, first come first served', async () => {
    const budget = createReadBudget(100);
    const order: string[] = [];
    const a = await budget.acquire(60);
    const b = budget.acquire(60).then((release) => (order.push('b'), release));
    const c = budget.acquire(10).then((release) => (order.push('c'), release));
    await Promise.resolve();
    // c would fit, but b came first: a small read never overtakes a large one for ever.
    expect(order).toEqual([]);
    expect(budget.inUse()).toBe(60);
    a();
    (await b)();
    (await c)();
    expect(order).toEqual(['b', 'c']);
    expect(budget.inUse()).toBe(0);
  });

  it('lets a file larger than the whole budget through, alone', async () => {
    const budget = createReadBudget(100);
    const big = await budget.acquire(500);
    let small = false;
    const next = budget.acquire(1).then((release) => ((small = true), release));
    await Promise.resolve();
    expect(small).toBe(false);
    big();
    (await next)();
    expect(small).toBe(true);
  });

  it('never holds more than the budget at once, whatever the sizes and release order (one oversized read alone aside)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 150 }), { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        async (sizes, picks) => {
          const budget = createReadBudget(100);
          const held: Array<{ size: number; release: () => void }> = [];
          const pending = sizes.map((size) => budget.acquire(size).then((release) => held.push({ size, release })));
          let released = 0;
          for (let step = 0; released < sizes.length; step += 1) {
            await new Promise((r) => setImmediate(r));
            if (held.length > 1) expect(held.reduce((n, h) => n + h.size, 0)).toBeLessThanOrEqual(100);
            // Something is always held while anything waits: the budget never stalls.
            expect(held.length).toBeGreaterThan(0);
            held.splice((picks[step] ?? 0) % held.length, 1)[0]!.release();
            released += 1;
          }
          await Promise.all(pending);
          expect(budget.inUse()).toBe(0);
          expect(budget.waiting()).toBe(0);
        },
      ),
      { numRuns: 100 },
    );
  });
});
