import { formatCount } from '../common/format';
import { purgeQuestion, purgeTargetOf } from '../curation/trash-rules';
import type { SliceCreator } from './deps';
import type { TrashSlice } from './types';

/** What is done inside the trash view: Restore and Delete permanently, to whole jobs and single images alike. */
export const createTrashSlice: SliceCreator<TrashSlice> =
  ({ api }) =>
  (set, get) => ({
    purgeAsk: null,

    askPurge(jobIds, imageIds = []) {
      const jobs = jobIds.flatMap((id) => get().jobs.byId[id] ?? []);
      const target = purgeTargetOf(jobs, imageIds);
      if (target.ids.length === 0 && target.imageIds.length === 0) return;
      set({ purgeAsk: { ...target, question: purgeQuestion(target) } });
    },

    cancelPurge() {
      set({ purgeAsk: null });
    },

    async confirmPurge() {
      const ask = get().purgeAsk;
      if (ask === null) return;
      try {
        await api.call('jobs.purgeTrashed', { ids: ask.ids, imageIds: ask.imageIds });
        set({ purgeAsk: null });
        // Gone for good: an earlier "Moved to Trash — Undo" could only do nothing now.
        get().dismissTopic('trash');
        get().clearSelection();
        void get().loadFirstPage();
        void get().loadStats();
        const what = ask.images > 0 ? formatCount(ask.images, 'image') : formatCount(ask.emptyJobs, 'job');
        get().toast({ kind: 'info', message: `Deleted ${what} permanently.` });
      } catch (error) {
        set({ purgeAsk: null });
        get().reportError(error);
      }
    },

    async restoreFromTrash(jobIds, imageIds = []) {
      const jobs = jobIds.flatMap((id) => get().jobs.byId[id] ?? []);
      const target = purgeTargetOf(jobs, imageIds);
      if (target.ids.length > 0) await get().restoreJobs(target.ids);
      if (target.imageIds.length > 0) {
        const owners = jobs.filter((j) => j.images.some((i) => target.imageIds.includes(i.id))).map((j) => j.id);
        await get().restoreImages({ images: { imageIds: target.imageIds, jobIds: owners } });
      }
      void get().loadFirstPage();
      void get().loadStats();
    },
  });
