import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { theRest, withoutImages } from '../../../../renderer/src/search/similar-view';

describe('duplicate groups after Keep this, trash the rest', () => {
  it('the rest is every other image of the group, with all its jobs', () => {
    expect(theRest({ imageIds: ['a', 'b', 'c'], jobIds: ['j1', 'j2'] }, 'b')).toEqual({
      imageIds: ['a', 'c'],
      jobIds: ['j1', 'j2'],
    });
  });

  it('drops trashed images from every group, and a group left with one image', () => {
    const groups = [
      { kind: 'exact', imageIds: ['a', 'b'] },
      { kind: 'near', imageIds: ['a', 'b', 'c'] },
      { kind: 'near', imageIds: ['d', 'e'] },
    ];
    expect(withoutImages(groups, new Set(['b']))).toEqual([
      { kind: 'near', imageIds: ['a', 'c'] },
      { kind: 'near', imageIds: ['d', 'e'] },
    ]);
  });

  it('never shows a trashed image nor a group of fewer than two, and keeps the rest in order', () => {
    const id = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(id, { minLength: 2 }), { maxLength: 6 }),
        fc.uniqueArray(id),
        (lists, gone) => {
          const goneSet = new Set(gone);
          const after = withoutImages(
            lists.map((imageIds) => ({ imageIds })),
            goneSet,
          );
          for (const g of after) {
            expect(g.imageIds.length).toBeGreaterThanOrEqual(2);
            expect(g.imageIds.some((i) => goneSet.has(i))).toBe(false);
          }
          const kept = lists.map((l) => l.filter((i) => !goneSet.has(i))).filter((l) => l.length >= 2);
          expect(after.map((g) => g.imageIds)).toEqual(kept);
        },
      ),
    );
  });
});
