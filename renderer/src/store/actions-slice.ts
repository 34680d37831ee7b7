import type { SliceCreator } from './deps';
import type { ActionsSlice } from './types';

export const createActionsSlice: SliceCreator<ActionsSlice> =
  ({ api }) =>
  (_set, get) => ({
    async setFavorite(ids, favorite) {
      if (ids.length === 0) return;
      try {
        await api.call('jobs.setFavorite', { ids: [...ids], favorite });
      } catch (error) {
        get().reportError(error);
      }
    },

    async trash(ids) {
      if (ids.length === 0) return;
      const list = [...ids];
      try {
        await api.call('jobs.trash', { ids: list });
        get().clearSelection();
        get().toast({
          kind: 'info',
          message: list.length === 1 ? 'Moved to Trash.' : `Moved ${list.length} jobs to Trash.`,
          action: { label: 'Undo', run: () => void get().restore(list) },
        });
      } catch (error) {
        get().reportError(error);
      }
    },

    async restore(ids) {
      if (ids.length === 0) return;
      try {
        await api.call('jobs.restore', { ids: [...ids] });
        get().clearSelection();
      } catch (error) {
        get().reportError(error);
      }
    },

    async emptyTrash() {
      try {
        const result = await api.call('jobs.emptyTrash', {});
        void get().loadFirstPage();
        void get().loadStats();
        return result;
      } catch (error) {
        get().reportError(error);
        return null;
      }
    },

    async cancel(id) {
      try {
        await api.call('jobs.cancel', { id });
      } catch (error) {
        get().reportError(error);
      }
    },

    async retry(id) {
      try {
        const result = await api.call('jobs.retry', { id });
        get().applyJobChanged(result.job);
      } catch (error) {
        get().reportError(error);
      }
    },

    async getDetail(id) {
      try {
        return await api.call('jobs.get', { id });
      } catch (error) {
        get().reportError(error);
        return null;
      }
    },
  });
