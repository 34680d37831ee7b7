import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COMPARE_SETTINGS,
  compareColumns,
  diffSettings,
  fromShared,
  rowsWorthShowing,
  toShared,
  type CompareSetting,
  type CompareSettings,
} from '../../../../renderer/src/viewer/compare';
import { fitScale } from '../../../../renderer/src/viewer/zoom';
import { fitView, zoomAround } from '../../../../renderer/src/viewer/zoom';

const KEYS = COMPARE_SETTINGS.map(([k]) => k);
const value = fc.option(fc.constantFrom('a', 'b', 'c', '7', ''), { nil: undefined });
const settings = fc.record(
  Object.fromEntries(KEYS.map((k) => [k, value])) as Record<CompareSetting, typeof value>,
) as fc.Arbitrary<CompareSettings>;
const columns = fc.array(settings, { minLength: 2, maxLength: 4 });

describe('the settings diff', () => {
  it('has one row per setting, in order: prompt, negative, model, seed, steps, guidance, sampler, size, provider', () => {
    const rows = diffSettings([{} as CompareSettings, {} as CompareSettings]);
    expect(rows.map((r) => r.label)).toEqual([
      'Prompt',
      'Negative',
      'Model',
      'Seed',
      'Steps',
      'Guidance',
      'Sampler',
      'Size',
      'Provider',
    ]);
  });

  it('never highlights a setting equal in every image', () => {
    fc.assert(
      fc.property(columns, (cols) => {
        for (const row of diffSettings(cols))
          if (row.values.every((v) => v === row.values[0])) expect(row.differs.every((d) => !d)).toBe(true);
      }),
    );
  });

  it('highlights a setting that differs in one image: that image’s cell, or both of two', () => {
    fc.assert(
      fc.property(settings, fc.integer({ min: 2, max: 4 }), fc.constantFrom(...KEYS), fc.nat(), (base, n, key, at) => {
        const odd = at % n;
        const cols = Array.from({ length: n }, (_, i) =>
          i === odd ? { ...base, [key]: `${base[key] ?? ''}!` } : { ...base },
        );
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
        for (const row of diffSettings(cols))
          if (new Set(row.values).size > 1) expect(row.differs.some(Boolean)).toBe(true);
      }),
    );
  });
});

describe('the shared view', () => {
  const pane = { width: 600, height: 500 };
  const size = fc.record({ width: fc.integer({ min: 16, max: 4096 }), height: fc.integer({ min: 16, max: 4096 }) });

  it('gives images of one size the very same view as the pane that zoomed', () => {
    fc.assert(
      fc.property(
        size,
        fc.double({ min: 0.2, max: 6, noNaN: true }),
        fc.double({ min: 0, max: 600, noNaN: true }),
        fc.double({ min: 0, max: 500, noNaN: true }),
        (image, factor, x, y) => {
          const view = zoomAround(fitView(image, pane), factor, { x, y }, image, pane);
          const back = fromShared(toShared(view, false, image, pane), image, pane);
          expect(back.scale).toBeCloseTo(view.scale, 9);
          expect(back.x).toBeCloseTo(view.x, 6);
          expect(back.y).toBeCloseTo(view.y, 6);
        },
      ),
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

describe('what Compare lays out', () => {
  it('leaves out a setting no image has, and keeps every row any image has', () => {
    fc.assert(
      fc.property(columns, (cols) => {
        const shown = rowsWorthShowing(diffSettings(cols));
        const kept = KEYS.filter((k) => cols.some((c) => c[k] !== undefined));
        expect(shown.map((r) => r.key)).toEqual(kept);
      }),
    );
  });

  it('puts four landscapes in a wide window two by two, and four portraits in one row', () => {
    const area = { width: 1440, height: 600 };
    expect(compareColumns(Array(4).fill({ width: 768, height: 512 }), area)).toBe(2);
    expect(compareColumns(Array(4).fill({ width: 512, height: 768 }), area)).toBe(4);
    expect(compareColumns(Array(2).fill({ width: 768, height: 512 }), area)).toBe(2);
  });

  it('never picks a layout that draws the smallest image smaller than the other would', () => {
    const size = fc.record({ width: fc.integer({ min: 16, max: 4096 }), height: fc.integer({ min: 16, max: 4096 }) });
    const area = fc.record({ width: fc.integer({ min: 200, max: 4000 }), height: fc.integer({ min: 200, max: 3000 }) });
    fc.assert(
      fc.property(fc.array(size, { minLength: 3, maxLength: 4 }), area, (images, box) => {
        const smallest = (cols: number) =>
          Math.min(
            ...images.map((i) =>
              fitScale(i, { width: box.width / cols, height: box.height / Math.ceil(images.length / cols) }),
            ),
          );
        const chosen = compareColumns(images, box);
        expect([images.length, Math.ceil(images.length / 2)]).toContain(chosen);
        expect(smallest(chosen)).toBeGreaterThanOrEqual(
          Math.max(smallest(images.length), smallest(Math.ceil(images.length / 2))),
        );
      }),
    );
  });
});
