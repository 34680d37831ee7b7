import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { finished, image, open } from './helpers.js';

/** One job: its images, each maybe trashed, a favourite or rejected (X). */
const jobShape = fc.array(fc.record({ trashed: fc.boolean(), favorite: fc.boolean(), rejected: fc.boolean() }), {
  minLength: 1,
  maxLength: 4,
});

describe('rejects leave the tabs’ counts', () => {
  it('in any library, the kept totals and the counting path both leave out the rejected images outside the trash', () => {
    fc.assert(
      fc.property(fc.array(jobShape, { minLength: 1, maxLength: 6 }), (shapes) => {
        const store = open();
        const expected = { active: 0, favorites: 0, trash: 0 };
        for (const [n, shape] of shapes.entries()) {
          const made = shape.map((_, i) => image(i));
          finished(store, `job ${n}`, { count: made.length }, made);
          const pick = (flag: 'trashed' | 'favorite' | 'rejected') =>
            made.filter((_, i) => shape[i]![flag]).map((m) => m.id);
          if (pick('favorite').length > 0) store.curation.setFavorite({ ids: pick('favorite') }, true);
          if (pick('rejected').length > 0) store.curation.setRejected({ ids: pick('rejected') }, true);
          if (pick('trashed').length > 0) store.curation.trash({ ids: pick('trashed') });
          const whole = pick('trashed').length === made.length;
          for (const each of shape) {
            if (whole || each.trashed) expected.trash += 1;
            else if (!each.rejected) {
              expected.active += 1;
              if (each.favorite) expected.favorites += 1;
            }
          }
        }
        const want = { ...expected, images: expected.active, capped: [] };
        expect(store.curation.count({})).toEqual(want);
        // Any filter takes the counting path; every job here succeeded, so this one matches them all.
        expect(store.curation.count({ status: ['succeeded'] })).toEqual(want);
        store.close();
      }),
      { numRuns: 25 },
    );
  });
});
