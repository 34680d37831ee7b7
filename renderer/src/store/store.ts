import { createStore, type StoreApi } from 'zustand/vanilla';
import { createJobActionsSlice } from './job-actions-slice';
import { createAnnotationsSlice } from './annotations-slice';
import { createComposerSlice } from './composer-slice';
import { createCurationSlice } from './curation-slice';
import type { StoreDeps } from './deps';
import { createHistorySlice } from './history-slice';
import { createImportsSlice } from './imports-slice';
import { createIterateSlice } from './iterate-slice';
import { createModelsSlice } from '../models/models-slice';
import { createQueueSlice } from './queue-slice';
import { createSelectionSlice } from './selection-slice';
import { createSettingsSlice } from './settings-slice';
import { createTrashSlice } from './trash-slice';
import { createSweepsSlice } from '../sweeps/sweeps-slice';
import type { AppState } from './types';
import { createUiSlice } from './ui-slice';

export type AppStore = StoreApi<AppState>;

/** The one store: typed slices side by side, created outside React so events can be wired before any render. */
export function createAppStore(deps: StoreDeps): AppStore {
  return createStore<AppState>()((...a) => ({
    ...createHistorySlice(deps)(...a),
    ...createComposerSlice(deps)(...a),
    ...createSelectionSlice(deps)(...a),
    ...createSettingsSlice(deps)(...a),
    ...createUiSlice(deps)(...a),
    ...createJobActionsSlice(deps)(...a),
    ...createAnnotationsSlice(deps)(...a),
    ...createImportsSlice(deps)(...a),
    ...createCurationSlice(deps)(...a),
    ...createIterateSlice(deps)(...a),
    ...createQueueSlice(deps)(...a),
    ...createTrashSlice(deps)(...a),
    ...createModelsSlice(deps)(...a),
    ...createSweepsSlice(deps)(...a),
  }));
}
