import { clickSelect, EMPTY_SELECTION, selectAll } from '../lib/selection';
import type { SliceCreator } from './deps';
import type { SelectionSlice } from './types';

export const createSelectionSlice: SliceCreator<SelectionSlice> = () => (set) => ({
  selection: EMPTY_SELECTION,
  focusedId: null,
  click: (id, mods) => set((s) => ({ selection: clickSelect(s.selection, s.jobs.order, id, mods), focusedId: id })),
  selectAllShown: () => set((s) => ({ selection: selectAll(s.jobs.order) })),
  clearSelection: () => set({ selection: EMPTY_SELECTION }),
  setFocused: (id) => set({ focusedId: id }),
});
