import {
  applyImportList,
  applyImportProgress,
  EMPTY_IMPORTS,
  importEndMessage,
  importQuery,
  isFinished,
  showImportedLabel,
} from '../library/import/imports-model';
import { formatNumber } from '../common/format';
import type { SliceCreator } from './deps';
import { DEFAULT_FILTERS, toMatchQuery } from './filters';
import type { ImportsSlice } from './types';

export const createImportsSlice: SliceCreator<ImportsSlice> =
  ({ api, now }) =>
  (set, get) => ({
    imports: EMPTY_IMPORTS,
    importsOpenedAt: now(),
    dismissedImports: {},
    folders: null,
    importDialog: null,

    applyImportProgress(event) {
      const before = get().imports.byId[event.id];
      set((s) => ({ imports: applyImportProgress(s.imports, event) }));
      // An import we have not seen (another window, a watch) or one that just ended: fetch its paths and problems.
      const ended = isFinished(event.status) && (before === undefined || !isFinished(before.status));
      const loaded = before === undefined || ended ? get().loadImports() : Promise.resolve();
      if (!ended) return;
      void get().loadFolders();
      void get().loadSources();
      // A short import may end before its row was ever listed here: the toast names its folder once the list has it.
      if (get().imports.byId[event.id]?.paths === undefined) void loaded.then(() => get().toastImportEnd(event.id));
      else get().toastImportEnd(event.id);
    },

    toastImportEnd(id) {
      const row = get().imports.byId[id];
      if (row === undefined) return;
      get().toast({
        kind: 'info',
        message: importEndMessage(row),
        replaces: `import-${id}`,
        ...(row.imported > 0
          ? { action: { label: showImportedLabel(row.imported), run: () => get().showImported(id) } }
          : {}),
      });
    },

    showImported(id) {
      const state = get();
      if (state.viewerId !== null) state.closeViewer();
      if (state.panel !== 'none') state.setPanel('none');
      // Every other filter would hide some of them: the view shows exactly what the import added, newest first.
      state.setFilters({ ...DEFAULT_FILTERS, search: importQuery(id) });
    },

    async setFolderWatch(id, watch) {
      try {
        const { folder } = await api.call('library.setFolderWatch', { id, watch });
        set((s) => ({ folders: s.folders?.map((f) => (f.id === id ? folder : f)) ?? null }));
      } catch (error) {
        get().reportError(error);
        void get().loadFolders();
      }
    },

    sources: null,
    async loadSources() {
      try {
        const { items } = await api.call('library.sources', {});
        set({ sources: items });
      } catch {
        // The Source filter keeps what it listed: a failed refresh hides nothing.
      }
    },

    reread: null,
    applyRereadProgress: (progress) => set({ reread: progress }),

    async rereadImages(target) {
      try {
        const input = 'query' in target ? { query: toMatchQuery(get().filters) } : { ids: target.images.imageIds };
        const { marked } = await api.call('library.reread', input);
        get().toast({
          kind: 'info',
          message:
            marked === 0
              ? 'None of these images came from another tool: there is nothing to re-read.'
              : `Re-reading the settings of ${formatNumber(marked)} ${marked === 1 ? 'file' : 'files'}.`,
        });
      } catch (error) {
        get().reportError(error);
      }
    },

    async loadImports() {
      try {
        // The re-read's state rides along; its events keep it current, so a failed ask costs nothing shown.
        void api.call('library.rereadStatus', {}).then(
          (reread) => set({ reread }),
          () => undefined,
        );
        const { items } = await api.call('library.imports', {});
        set((s) => ({ imports: applyImportList(s.imports, items) }));
      } catch (error) {
        get().reportError(error);
      }
    },

    async startImport(request) {
      try {
        const { import: started } = await api.call('library.import', request);
        set((s) => ({ imports: applyImportList(s.imports, [started]), importDialog: null }));
        return null;
      } catch (error) {
        return error;
      }
    },

    async controlImport(id, action) {
      const channel =
        action === 'pause'
          ? 'library.pauseImport'
          : action === 'resume'
            ? 'library.resumeImport'
            : 'library.cancelImport';
      try {
        const { import: summary } = await api.call(channel, { id });
        set((s) => ({ imports: applyImportList(s.imports, [summary]) }));
      } catch (error) {
        get().reportError(error);
      }
    },

    dismissImport: (id) => set((s) => ({ dismissedImports: { ...s.dismissedImports, [id]: true } })),

    openImportDialog: (prefill = {}) =>
      set({ importDialog: { paths: prefill.paths ?? [], note: prefill.note ?? null } }),
    closeImportDialog: () => set({ importDialog: null }),

    async loadFolders() {
      try {
        const { items } = await api.call('library.folders', {});
        set({ folders: items });
      } catch (error) {
        get().reportError(error);
      }
    },

    async removeFolder(id) {
      try {
        const { trashed } = await api.call('library.removeFolder', { id });
        void get().loadFolders();
        void get().loadStats();
        void get().loadSources();
        return trashed;
      } catch (error) {
        get().reportError(error);
        return null;
      }
    },
  });
