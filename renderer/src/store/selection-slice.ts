import { clickSelect, EMPTY_SELECTION, selectAll } from '../gallery/selection';
import type { SliceCreator } from './deps';
import type { SelectionSlice } from './types';

export const createSelectionSlice: SliceCreator<SelectionSlice> = () => (set) => ({
  selection: EMPTY_SELECTION,
  focusedId: null,
  // Another card in focus starts on its first image.
  click: (id, mods) =>
    set((s) => ({
      selection: clickSelect(s.selection, s.jobs.order, id, mods),
      focusedId: id,
      focusedImageId: s.focusedId === id ? s.focusedImageId : null,
    })),
  selectAllShown: () => set((s) => ({ selection: selectAll(s.jobs.order) })),
  clearSelection: () => set({ selection: EMPTY_SELECTION }),
  setFocused: (id) => set((s) => ({ focusedId: id, focusedImageId: s.focusedId === id ? s.focusedImageId : null })),
});
