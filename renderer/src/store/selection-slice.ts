import { visibleImages } from '../curation/curation';
import { clickSelect, EMPTY_SELECTION, selectAll } from '../gallery/selection';
import type { SliceCreator } from './deps';
import type { SelectionSlice } from './types';

export const createSelectionSlice: SliceCreator<SelectionSlice> = () => (set) => ({
  selection: EMPTY_SELECTION,
  focusedJobId: null,
  // Another card in focus starts on its first image; a click on one picture of a card focuses that picture.
  click: (id, mods, imageId) =>
    set((s) => {
      const view = s.filters.view === 'trash' ? 'trash' : 'active';
      const shown = (jobId: string) => {
        const job = s.jobs.byId[jobId];
        return job === undefined ? [] : visibleImages(job, view).map((i) => i.id);
      };
      return {
        selection: clickSelect(
          s.selection,
          s.jobs.order,
          id,
          mods,
          imageId === undefined ? undefined : { imageId, shown },
        ),
        focusedJobId: id,
        focusedImageId: imageId ?? (s.focusedJobId === id ? s.focusedImageId : null),
      };
    }),
  selectAllShown: () => set((s) => ({ selection: selectAll(s.jobs.order) })),
  clearSelection: () => set({ selection: EMPTY_SELECTION }),
  setFocused: (id) =>
    set((s) => ({ focusedJobId: id, focusedImageId: s.focusedJobId === id ? s.focusedImageId : null })),
});
