import { AppError } from '../../../shared/errors';
import type { SliceCreator } from './deps';
import type { AppState, JobActionsSlice } from './types';

/**
 * An imported file's settings are what its tool wrote (a sampler the built-in lacks, a provider turned off here):
 * the composer fits them to a provider that can run them and generates; what still does not fit shows there.
 */
async function retryThroughComposer(get: () => AppState, id: string, why: string): Promise<void> {
  const detail = await get().getDetail(id);
  if (detail === null) return;
  get().reuseSettings(detail);
  await get().submit();
  const state = get();
  if (Object.keys(state.fieldErrors).length > 0) {
    state.closeViewer();
    state.toast({
      kind: 'error',
      message: `${why} Its settings are in the composer: fix what it marks, then Generate.`,
    });
    return;
  }
  const provider = state.providers.find((p) => p.id === state.draft.provider)?.name ?? state.draft.provider;
  state.toast({ kind: 'info', message: `${why} Generating it again with ${provider}, its settings fitted to it.` });
}

export const createJobActionsSlice: SliceCreator<JobActionsSlice> =
  ({ api }) =>
  (set, get) => ({
    async favoriteJobs(ids, favorite) {
      if (ids.length === 0) return;
      try {
        await api.call('jobs.setFavorite', { ids: [...ids], favorite });
      } catch (error) {
        get().reportError(error);
      }
    },

    async trashJobs(ids) {
      if (ids.length === 0) return;
      const list = [...ids];
      try {
        await api.call('jobs.trash', { ids: list });
        get().clearSelection();
        get().toast({
          kind: 'info',
          message: list.length === 1 ? 'Moved to Trash.' : `Moved ${list.length} jobs to Trash.`,
          action: { label: 'Undo', run: () => void get().restoreJobs(list) },
          topic: 'trash',
        });
      } catch (error) {
        get().reportError(error);
      }
    },

    async restoreJobs(ids) {
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
        // Those jobs are gone for good: an earlier "Moved to Trash — Undo" could only do nothing now.
        get().dismissTopic('trash');
        void get().loadFirstPage();
        void get().loadStats();
        return result;
      } catch (error) {
        get().reportError(error);
        return null;
      }
    },

    async rebuildHistory() {
      try {
        void get().loadStats();
        const result = await api.call('library.rebuild', {});
        void get().loadFirstPage();
        void get().loadStats();
        const restored = `${result.jobs} job${result.jobs === 1 ? '' : 's'} with ${result.images} image${result.images === 1 ? '' : 's'}`;
        const unread =
          result.unreadable === 0
            ? ''
            : ` ${result.unreadable} file${result.unreadable === 1 ? '' : 's'} had no Atelier settings and stay where they are.`;
        get().toast({ kind: 'info', message: `History rebuilt from your images: ${restored} restored.${unread}` });
      } catch (error) {
        void get().loadStats();
        get().reportError(error);
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
        const job = get().jobs.byId[id];
        if (
          job !== undefined &&
          job.source !== 'atelier' &&
          error instanceof AppError &&
          error.code === 'invalid_request'
        ) {
          await retryThroughComposer(get, id, error.message);
          return;
        }
        get().reportError(error);
      }
    },

    async revealJob(id) {
      const state = get();
      if (state.viewerId !== null) state.closeViewer();
      if (state.panel !== 'none') state.setPanel('none');
      if (state.jobs.pendingTop.includes(id)) state.showArrivals();
      if (get().jobs.order.includes(id)) {
        set((s) => ({ focusedJobId: id, revealed: { id, seq: (s.revealed?.seq ?? 0) + 1 } }));
        return;
      }
      // Not in the grid (queued, filtered out, not loaded yet): the viewer shows it wherever it is.
      if (get().jobs.byId[id] === undefined) {
        const detail = await get().getDetail(id);
        if (detail === null) return;
        get().applyJobChanged(detail);
      }
      get().openViewer(id);
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
