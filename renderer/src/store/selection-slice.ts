import { clickSelect, EMPTY_SELECTION, selectAll } from '../gallery/selection';
import type { SliceCreator } from './deps';
import type { SelectionSlice } from './types';

export const createSelectionSlice: SliceCreator<SelectionSlice> = () => (set) => ({
  selection: EMPTY_SELECTION,
  focusedJobId: null,
  // Another card in focus starts on its first image.
  click: (id, mods) =>
    set((s) => ({
      selection: clickSelect(s.selection, s.jobs.order, id, mods),
      focusedJobId: id,
      focusedImageId: s.focusedJobId === id ? s.focusedImageId : null,
    })),
  selectAllShown: () => set((s) => ({ selection: selectAll(s.jobs.order) })),
  clearSelection: () => set({ selection: EMPTY_SELECTION }),
  setFocused: (id) =>
    set((s) => ({ focusedJobId: id, focusedImageId: s.focusedJobId === id ? s.focusedImageId : null })),
});
