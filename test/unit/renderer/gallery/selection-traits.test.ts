import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ImageSummary, JobSummary } from '../../../../shared/contract';
import { EMPTY_SELECTION, type Selection } from '../../../../renderer/src/gallery/selection';
import { selectionTraits } from '../../../../renderer/src/gallery/selection-traits';
import { makeJob } from '../helpers';

const image = (id: string, favorite: boolean): ImageSummary => ({
  id,
  index: 0,
  width: 64,
  height: 64,
  mime: 'image/png',
  bytes: 10,
  ...(favorite ? { favorite: true as const } : {}),
});

function library(jobs: JobSummary[]) {
  return { byId: Object.fromEntries(jobs.map((j) => [j.id, j])), order: jobs.map((j) => j.id) };
}

describe('what the selection bar offers for what is picked', () => {
  it('one favourite toggle: Unfavorite only when every picked picture is a favourite; Re-read only for imports', () => {
    const fav = makeJob({ images: [image('f1', true)] });
    const mixed = makeJob({ images: [image('m1', true), image('m2', false)], source: 'comfyui' });
    const { byId, order } = library([fav, mixed]);
    const pick = (selected: string[], images: Selection['images'] = {}): Selection => ({
      ...EMPTY_SELECTION,
      selected: Object.fromEntries(selected.map((id) => [id, true as const])),
      images,
    });
    expect(selectionTraits(pick([fav.id]), order, byId, 'active')).toEqual({
      anyNotFavorite: false,
      anyImported: false,
    });
    expect(selectionTraits(pick([fav.id, mixed.id]), order, byId, 'active')).toEqual({
      anyNotFavorite: true,
      anyImported: true,
    });
    // The imported card picked by its favourite picture alone: nothing left to favourite.
    expect(selectionTraits(pick([mixed.id], { [mixed.id]: ['m1'] }), order, byId, 'active')).toEqual({
      anyNotFavorite: false,
      anyImported: true,
    });
  });

  it('the toggle favourites exactly when some picked picture is not a favourite', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }), { maxLength: 6 }), (cards) => {
        const jobs = cards.map((favs, j) => makeJob({ images: favs.map((f, i) => image(`i${j}-${i}`, f)) }));
        const { byId, order } = library(jobs);
        const selection = { ...EMPTY_SELECTION, selected: Object.fromEntries(order.map((id) => [id, true as const])) };
        const traits = selectionTraits(selection, order, byId, 'active');
        expect(traits.anyNotFavorite).toBe(cards.flat().includes(false));
        expect(traits.anyImported).toBe(false);
      }),
    );
  });
});
