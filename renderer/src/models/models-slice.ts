import type { LibraryModel } from '../../../shared/contract';
import type { SliceCreator } from '../store/deps';
import type { ModelsSlice } from '../store/types';
import { errorMessage } from '../store/ui-slice';
import { DEFAULT_MODEL_FILTER, imagesQuery } from './model-view';

/** The whole library in one answer (the contract's most): the screen and the LoRA picker filter it on this side. */
const LIBRARY_LIMIT = 5_000;

export const createModelsSlice: SliceCreator<ModelsSlice> =
  ({ api }) =>
  (set, get) => {
    // Each load's number: an answer older than the newest asked for is dropped.
    let asked = 0;
    let inFlight: Promise<void> | null = null;
    const load = (): Promise<void> => {
      const mine = ++asked;
      set({ modelsState: 'loading' });
      const run = api.call('models.library', { sort: 'used', limit: LIBRARY_LIMIT }).then(
        (library) => {
          if (mine === asked) set({ modelLibrary: library, modelsState: 'ready', modelsError: null });
        },
        (error: unknown) => {
          if (mine === asked) set({ modelsState: 'error', modelsError: errorMessage(error) });
        },
      );
      inFlight = run.finally(() => {
        if (mine === asked) inFlight = null;
      });
      return inFlight;
    };
    const patchItem = (key: string, patch: Partial<LibraryModel>) =>
      set((s) =>
        s.modelLibrary === null
          ? {}
          : {
              modelLibrary: {
                ...s.modelLibrary,
                items: s.modelLibrary.items.map((m) => (m.key === key ? { ...m, ...patch } : m)),
              },
            },
      );

    return {
      modelsOpen: false,
      modelFilter: DEFAULT_MODEL_FILTER,
      modelLibrary: null,
      modelsState: 'idle',
      modelsError: null,
      openModels(filter) {
        set({ modelsOpen: true, modelFilter: { ...DEFAULT_MODEL_FILTER, ...filter } });
        // Every opening asks again: images made since change counts and previews.
        void load();
      },
      closeModels: () => set({ modelsOpen: false }),
      setModelFilter: (patch) => set((s) => ({ modelFilter: { ...s.modelFilter, ...patch } })),
      loadModels: () => load(),
      ensureModels: () => (get().modelLibrary !== null ? Promise.resolve() : (inFlight ?? load())),
      async refreshModels() {
        try {
          await api.call('models.refresh', {});
        } catch (error) {
          get().reportError(error);
        }
        await load();
      },
      async saveModelNote(key, note) {
        const before = get().modelLibrary?.items.find((m) => m.key === key)?.note;
        const text = note.trim();
        if ((before ?? '') === text) return true;
        patchItem(key, { note: text === '' ? undefined : text });
        try {
          const saved = await api.call('models.setNote', { key, note: text });
          patchItem(key, { note: saved.note === '' ? undefined : saved.note });
          return true;
        } catch (error) {
          patchItem(key, { note: before });
          get().reportError(error);
          return false;
        }
      },
      showModelImages(model) {
        const query = imagesQuery(model);
        if (query === null) return;
        set({ modelsOpen: false });
        // Out of the trash or Favorites: the search is over every image made with it.
        if (get().filters.view !== 'all') set((s) => ({ filters: { ...s.filters, view: 'all' } }));
        void get().setSearch(query);
      },
    };
  };
