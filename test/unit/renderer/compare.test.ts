import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMPARE_SETTINGS, diffSettings, fromShared, toShared, type CompareSetting, type CompareSettings } from '../../../renderer/src/lib/compare';
import { fitView, zoomAround } from '../../../renderer/src/lib/zoom';

const KEYS = COMPARE_SETTINGS.map(([k]) => k);
const value = fc.option(fc.constantFrom('a', 'b', 'c', '7', ''), { nil: undefined });
const settings = fc.record(Object.fromEntries(KEYS.map((k) => [k, value])) as Record<CompareSetting, typeof value>) as fc.Arbitrary<CompareSettings>;
const columns = fc.array(settings, { minLength: 2, maxLength: 4 });

describe('the settings diff', () => {
  it('has one row per setting, in order: prompt, negative, model, seed, steps, guidance, sampler, size, provider', () => {
    const rows = diffSettings([{} as CompareSettings, {} as CompareSettings]);
    expect(rows.map((r) => r.label)).toEqual(['Prompt', 'Negative', 'Model', 'Seed', 'Steps', 'Guidance', 'Sampler', 'Size', 'Provider']);
  });

  it('never highlights a setting equal in every image', () => {
    fc.assert(
      fc.property(columns, (cols) => {
        for (const row of diffSettings(cols)) if (row.values.every((v) => v === row.values[0])) expect(row.differs.every((d) => !d)).toBe(true);
      }),
    );
  });

  it('highlights a setting that differs in one image: that image’s cell, or both of two', () => {
    fc.assert(
      fc.property(settings, fc.integer({ min: 2, max: 4 }), fc.constantFrom(...KEYS), fc.nat(), (base, n, key, at) => {
        const odd = at % n;
        const cols = Array.from({ length: n }, (_, i) => (i === odd ? { ...base, [key]: `${base[key] ?? ''}!` } : { ...base }));
        for (const row of diffSettings(cols)) {
          if (row.key !== key) expect(row.differs.some(Boolean)).toBe(false);
          else if (n === 2) expect(row.differs).toEqual([true, true]);
          else expect(row.differs).toEqual(cols.map((_, i) => i === odd));
        }
      }),
    );
  });

  it('highlights at least one cell of any row whose values are not all equal', () => {
    fc.assert(
      fc.property(columns, (cols) => {
        for (const row of diffSettings(cols)) if (new Set(row.values).size > 1) expect(row.differs.some(Boolean)).toBe(true);
      }),
    );
  });
});

describe('the shared view', () => {
  const pane = { width: 600, height: 500 };
  const size = fc.record({ width: fc.integer({ min: 16, max: 4096 }), height: fc.integer({ min: 16, max: 4096 }) });

  it('gives images of one size the very same view as the pane that zoomed', () => {
    fc.assert(
      fc.property(size, fc.double({ min: 0.2, max: 6, noNaN: true }), fc.double({ min: 0, max: 600, noNaN: true }), fc.double({ min: 0, max: 500, noNaN: true }), (image, factor, x, y) => {
        const view = zoomAround(fitView(image, pane), factor, { x, y }, image, pane);
        const back = fromShared(toShared(view, false, image, pane), image, pane);
        expect(back.scale).toBeCloseTo(view.scale, 9);
        expect(back.x).toBeCloseTo(view.x, 6);
        expect(back.y).toBeCloseTo(view.y, 6);
      }),
    );
  });

  it('keeps a fitted view fitted on an image of another size', () => {
    fc.assert(
      fc.property(size, size, (a, b) => {
        expect(fromShared(toShared(fitView(a, pane), true, a, pane), b, pane)).toEqual(fitView(b, pane));
      }),
    );
  });
});
