import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { finished, image, open } from './helpers.js';

/** One job of the generated library: its images, which of them are trashed or favourites, and whether it is trashed whole. */
const jobShape = fc.record({
  images: fc.array(fc.record({ trashed: fc.boolean(), favorite: fc.boolean() }), { minLength: 1, maxLength: 4 }),
  trashedWhole: fc.boolean(),
});

describe('the tabs count images', () => {
  it('in any library, the kept totals and the counting path agree with the images each tab shows', () => {
    fc.assert(
      fc.property(fc.array(jobShape, { minLength: 1, maxLength: 6 }), (shapes) => {
        const store = open();
        const expected = { active: 0, favorites: 0, trash: 0 };
        for (const [n, shape] of shapes.entries()) {
          const made = shape.images.map((_, i) => image(i));
          const id = finished(store, `job ${n}`, { count: made.length }, made);
          const favourites = made.filter((_, i) => shape.images[i]!.favorite).map((m) => m.id);
          if (favourites.length > 0) store.curation.setFavorite({ ids: favourites }, true);
          const trashed = made.filter((_, i) => shape.images[i]!.trashed).map((m) => m.id);
          if (trashed.length > 0) store.curation.trash({ ids: trashed });
          if (shape.trashedWhole) store.trash([id]);
          // A job whose every image is trashed leaves the grid whole, as one trashed whole does.
          const whole = shape.trashedWhole || trashed.length === made.length;
          for (const each of shape.images) {
            if (whole || each.trashed) expected.trash += 1;
            else {
              expected.active += 1;
              if (each.favorite) expected.favorites += 1;
            }
          }
        }
        const kept = store.curation.count({});
        // Any filter takes the counting path; every job here succeeded, so this one matches them all.
        const counted = store.curation.count({ status: ['succeeded'] });
        const want = { ...expected, images: expected.active, capped: [] };
        expect(kept).toEqual(want);
        expect(counted).toEqual(want);
        store.close();
      }),
      { numRuns: 25 },
    );
  });
});
