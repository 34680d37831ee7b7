import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ASPECT_RATIOS,
  fixedSizeLabel,
  litRatio,
  sizeForRatio,
  type AspectRatio,
} from '../../../../renderer/src/composer/size-ratios';

const BUILTIN = { min: 64, max: 2048, multipleOf: 8 };
const ratio = (label: string): AspectRatio => ASPECT_RATIOS.find((r) => r.label === label)!;
const lit = (w: number, h: number, step = 8) => ASPECT_RATIOS.filter((r) => litRatio(w, h, step) === r);

/** Size rules as providers give them: a step, a least and a largest edge on or off the step. */
const rulesArb = fc
  .record({
    multipleOf: fc.constantFrom(1, 8, 16, 32, 64),
    min: fc.integer({ min: 1, max: 1024 }),
    span: fc.integer({ min: 0, max: 4096 }),
  })
  .map(({ multipleOf, min, span }) => ({ multipleOf, min, max: min + span }));

describe('which ratio chip is lit', () => {
  it('lights only 1:1 at 64×64, only 3:2 at 96×64, none for an odd size', () => {
    expect(lit(64, 64).map((r) => r.label)).toEqual(['1:1']);
    expect(lit(64, 64, 64).map((r) => r.label)).toEqual(['1:1']);
    expect(lit(96, 64).map((r) => r.label)).toEqual(['3:2']);
    expect(lit(64, 96).map((r) => r.label)).toEqual(['2:3']);
    expect(lit(512, 200)).toEqual([]);
    expect(lit(1000, 600)).toEqual([]);
    expect(lit(1024, 576).map((r) => r.label)).toEqual(['16:9']);
    // 16:9 rounded to the step: 1000 × 562.5 is drawn as 1000 × 560 by an 8-px step, not by a 1-px one.
    expect(lit(1000, 560, 8).map((r) => r.label)).toEqual(['16:9']);
    expect(lit(1000, 560, 1)).toEqual([]);
  });

  it('lights at most one chip for any width × height and step', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8192 }),
        fc.integer({ min: 1, max: 8192 }),
        fc.constantFrom(1, 8, 16, 32, 64),
        (w, h, step) => {
          expect(lit(w, h, step).length).toBeLessThanOrEqual(1);
        },
      ),
    );
  });

  it('lights exactly the chip whose ratio a size is, at any step', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ASPECT_RATIOS),
        fc.integer({ min: 1, max: 256 }),
        fc.constantFrom(1, 8, 16, 32, 64),
        (chosen, k, step) => {
          expect(lit(chosen.w * k, chosen.h * k, step)).toEqual([chosen]);
        },
      ),
    );
  });

  it('lights nothing for a size that is not one', () => {
    expect(litRatio(0, 512, 8)).toBeNull();
    expect(litRatio(Number.NaN, 512, 8)).toBeNull();
  });
});

describe('clicking a ratio chip', () => {
  it('sets that ratio near the current area, snapped to the step, round sizes first', () => {
    expect(sizeForRatio(ratio('16:9'), 1024, 1024, BUILTIN)).toEqual([1360, 768]);
    expect(sizeForRatio(ratio('3:2'), 512, 512, BUILTIN)).toEqual([624, 416]);
    expect(sizeForRatio(ratio('1:1'), 768, 512, BUILTIN)).toEqual([640, 640]);
    expect(sizeForRatio(ratio('4:3'), 64, 64, BUILTIN)).toEqual([80, 64]);
  });

  it('goes back to the same size after a detour through other ratios', () => {
    let size: [number, number] = [512, 512];
    for (const label of ['4:3', '1:1', '16:9', '1:1', '2:3', '9:16', '1:1'])
      size = sizeForRatio(ratio(label), size[0], size[1], BUILTIN)!;
    expect(size).toEqual([512, 512]);
  });

  it('then lights exactly that chip, with a size the provider accepts, for any start and rules', () => {
    fc.assert(
      fc.property(
        rulesArb,
        fc.integer({ min: 0, max: 8192 }),
        fc.integer({ min: 0, max: 8192 }),
        fc.constantFrom(...ASPECT_RATIOS),
        (rules, w, h, chosen) => {
          const size = sizeForRatio(chosen, w, h, rules);
          if (size === null) return;
          const [width, height] = size;
          for (const edge of size) {
            expect(edge % rules.multipleOf).toBe(0);
            expect(edge).toBeGreaterThanOrEqual(rules.min);
            expect(edge).toBeLessThanOrEqual(rules.max);
          }
          expect(lit(width, height, rules.multipleOf)).toEqual([chosen]);
        },
      ),
    );
  });

  it('always has a size for every chip when the edges span the common sizes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 8, 16, 32, 64),
        fc.integer({ min: 0, max: 8192 }),
        fc.integer({ min: 0, max: 8192 }),
        fc.constantFrom(...ASPECT_RATIOS),
        (multipleOf, w, h, chosen) => {
          expect(sizeForRatio(chosen, w, h, { min: 64, max: 2048, multipleOf })).not.toBeNull();
        },
      ),
    );
  });

  it('keeps the area within a fifth of the current one when the rules allow it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 384, max: 1536 }),
        fc.integer({ min: 384, max: 1536 }),
        fc.constantFrom(...ASPECT_RATIOS),
        (w, h, chosen) => {
          const [width, height] = sizeForRatio(chosen, w, h, BUILTIN)!;
          expect(Math.abs(Math.log((width * height) / (w * h)))).toBeLessThan(Math.log(1.2));
        },
      ),
    );
  });
});

describe('a fixed size’s chip', () => {
  it('names its ratio when it is one, else its size', () => {
    expect(fixedSizeLabel(1536, 1024)).toBe('3:2 · 1536 × 1024');
    expect(fixedSizeLabel(1792, 1024)).toBe('1792 × 1024');
  });
});
