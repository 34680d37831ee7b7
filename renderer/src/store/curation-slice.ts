import type { ImageSummary, JobSummary, MatchCounts } from '../../../shared/contract';
import {
  patchImages,
  withFavorite,
  withRating,
  withRejected,
  withTags,
  withTrashed,
  type ImageTargets,
} from '../curation/curation';
import { formatNumber } from '../common/format';
import type { SliceCreator } from './deps';
import { countsKeyOf, toMatchQuery } from './filters';
import type { AppState, CurationSlice, CurationTarget } from './types';

const AUTO_ADVANCE_KEY = 'atelier.autoAdvance';
/** Counts follow the query, but after its results and once typing pauses: the host answers one call at a time. */
const COUNTS_DELAY_MS = 200;

function storedAutoAdvance(): boolean {
  try {
    return globalThis.localStorage?.getItem(AUTO_ADVANCE_KEY) !== 'off';
  } catch {
    return true;
  }
}

function plural(n: number, one: string): string {
  return `${formatNumber(n)} ${one}${n === 1 ? '' : 's'}`;
}

type Patch = (image: ImageSummary) => ImageSummary;

/** The request's target: the images picked, or every image the current search and filters match. */
function targetInput(
  state: AppState,
  target: CurationTarget,
): { ids: string[] } | { query: ReturnType<typeof toMatchQuery> } {
  return 'query' in target ? { query: toMatchQuery(state.filters) } : { ids: target.images.imageIds };
}

export const createCurationSlice: SliceCreator<CurationSlice> =
  ({ api }) =>
  (set, get) => {
    /** Shows the change on the cards at once; returns the jobs as they were, to put back on failure or Undo. */
    const applyLocally = (targets: ImageTargets, patch: Patch): JobSummary[] => {
      const ids = new Set(targets.imageIds);
      const before: JobSummary[] = [];
      set((s) => {
        const byId = { ...s.jobs.byId };
        for (const jobId of targets.jobIds) {
          const job = byId[jobId];
          if (job === undefined) continue;
          before.push(job);
          byId[jobId] = patchImages(job, ids, patch);
        }
        return { jobs: { ...s.jobs, byId } };
      });
      return before;
    };

    /** Puts the images' curated fields back as they were, unless an event has since brought a newer job. */
    const putBack = (before: readonly JobSummary[]) =>
      set((s) => {
        const byId = { ...s.jobs.byId };
        for (const job of before) {
          const now = byId[job.id];
          if (now !== undefined && now.updatedAt <= job.updatedAt) byId[job.id] = { ...now, images: job.images };
        }
        return { jobs: { ...s.jobs, byId } };
      });

    /**
     * One curation action: the cards change at once, the engine does it in one transaction, and one toast offers
     * the Undo for the whole of it (the previous curation toast gives way, so toasts never stack up).
     */
    const curate = async (
      target: CurationTarget,
      run: (
        input: { ids: string[] } | { query: ReturnType<typeof toMatchQuery> },
      ) => Promise<{ updated: number; undoId: string | null }>,
      patch: Patch,
      describe: (updated: number) => string,
      topic: 'curation' | 'trash' = 'curation',
      /** Toast even for one image: an image that leaves the view needs its way back. */
      always = false,
    ): Promise<boolean> => {
      const state = get();
      if (!('query' in target) && target.images.imageIds.length === 0) return false;
      const before = 'query' in target ? [] : applyLocally(target.images, patch);
      try {
        const result = await run(targetInput(state, target));
        if ('query' in target) void get().loadFirstPage();
        // One image rated, favourited or tagged shows it on the image itself: a toast per key while culling is noise.
        if (!always && topic === 'curation' && !('query' in target) && target.images.imageIds.length === 1) return true;
        get().dismissTopic('curation');
        const undoId = result.undoId;
        get().toast({
          kind: 'info',
          message: describe(result.updated),
          topic,
          ...(undoId === null
            ? {}
            : { action: { label: 'Undo', run: () => void get().undoCuration(undoId, before, 'query' in target) } }),
        });
        return true;
      } catch (error) {
        putBack(before);
        get().reportError(error);
        return false;
      }
    };

    let countsTimer: ReturnType<typeof setTimeout> | undefined;

    return {
      focusedImageId: null,
      autoAdvance: storedAutoAdvance(),
      counts: null,
      countsKey: null,
      tags: null,
      boards: null,

      focusImage: (jobId, imageId) => set({ focusedJobId: jobId, focusedImageId: imageId }),
      setAutoAdvance(on) {
        set({ autoAdvance: on });
        try {
          globalThis.localStorage?.setItem(AUTO_ADVANCE_KEY, on ? 'on' : 'off');
        } catch {
          // A browser without storage keeps the choice for this window only.
        }
      },

      rate: (target, rating) =>
        curate(
          target,
          (t) => api.call('images.setRating', { ...t, rating }),
          (image) => withRating(image, rating),
          (n) =>
            rating === 0
              ? `Cleared the rating of ${plural(n, 'image')}.`
              : `Rated ${plural(n, 'image')} ${'★'.repeat(rating)}.`,
        ),
      favoriteImages: (target, favorite) =>
        curate(
          target,
          (t) => api.call('images.setFavorite', { ...t, favorite }),
          (image) => withFavorite(image, favorite),
          (n) =>
            favorite ? `Added ${plural(n, 'image')} to Favorites.` : `Removed ${plural(n, 'image')} from Favorites.`,
        ),
      rejectImages: (target, rejected, options) =>
        curate(
          target,
          (t) => api.call('images.setRejected', { ...t, rejected }),
          (image) => withRejected(image, rejected),
          (n) =>
            rejected
              ? `Rejected ${plural(n, 'image')}: hidden from All (search is:rejected to see ${n === 1 ? 'it' : 'them'}).`
              : `Un-rejected ${plural(n, 'image')}.`,
          'curation',
          // The viewer's sign over the picture says it already: a toast there would cover the sign.
          options?.quiet !== true,
        ),
      trashImages: (target) =>
        curate(
          target,
          (t) => api.call('images.trash', t),
          (image) => withTrashed(image, true),
          (n) => (n === 1 ? 'Moved 1 image to Trash.' : `Moved ${plural(n, 'image')} to Trash.`),
          'trash',
        ),
      restoreImages: (target) =>
        curate(
          target,
          (t) => api.call('images.restore', t),
          (image) => withTrashed(image, false),
          (n) => `Restored ${plural(n, 'image')}.`,
        ),
      tagImages: (target, change) =>
        curate(
          target,
          (t) =>
            api.call('images.tag', {
              ...t,
              ...(change.add?.length ? { add: change.add } : {}),
              ...(change.remove?.length ? { remove: change.remove } : {}),
            }),
          (image) => withTags(image, change.add ?? [], change.remove ?? []),
          (n) =>
            change.add?.length
              ? `Tagged ${plural(n, 'image')} ${change.add.join(', ')}.`
              : `Removed ${change.remove?.join(', ') ?? ''} from ${plural(n, 'image')}.`,
        ),

      async undoCuration(undoId, before, wholeQuery) {
        try {
          await api.call('images.undo', { undoId });
          if (wholeQuery) void get().loadFirstPage();
          else putBack(before);
        } catch (error) {
          get().reportError(error);
        }
      },

      loadCountsSoon() {
        clearTimeout(countsTimer);
        countsTimer = setTimeout(() => void get().loadCounts(), COUNTS_DELAY_MS);
      },

      async loadCounts() {
        const { filters } = get();
        const query = toMatchQuery(filters);
        const { view: _view, favorite: _favorite, ...countQuery } = query;
        try {
          const counts = await api.call('jobs.count', countQuery);
          // On Favorites, "all matches" means the favourites among them.
          const favourites =
            filters.view === 'favorites' ? await api.call('jobs.count', { ...countQuery, favorite: true }) : null;
          const images = favourites === null ? counts.images : favourites.images;
          const capped: MatchCounts['capped'] = counts.capped.filter((k) => k !== 'images');
          if ((favourites ?? counts).capped.includes('images')) capped.push('images');
          set({ counts: { ...counts, images, capped }, countsKey: countsKeyOf(filters) });
        } catch {
          // Counts are a help, not the grid: an older engine or a bad query leaves them as they were.
        }
      },

      // The lists refetch on every change; a failed refetch keeps what they showed rather than toast each time.
      async loadTags() {
        try {
          set({ tags: (await api.call('tags.list', {})).items });
        } catch {
          // Kept as it was.
        }
      },
      async renameTag(from, to) {
        try {
          const result = await api.call('tags.rename', { from, to });
          get().toast({
            kind: 'info',
            message: result.merged
              ? `Merged “${from}” into “${to}” (${plural(result.updated, 'image')}).`
              : `Renamed “${from}” to “${to}”.`,
          });
          void get().loadTags();
          void get().loadFirstPage();
          return true;
        } catch (error) {
          get().reportError(error);
          return false;
        }
      },

      async loadBoards() {
        try {
          set({ boards: (await api.call('boards.list', {})).items });
        } catch {
          // Kept as it was.
        }
      },
      async createBoard(name, query) {
        try {
          const { board } = await api.call('boards.create', query === undefined ? { name } : { name, query });
          set((s) => ({ boards: [...(s.boards ?? []).filter((b) => b.id !== board.id), board] }));
          void get().loadBoards();
          return board;
        } catch (error) {
          get().reportError(error);
          return null;
        }
      },
      async renameBoard(id, name) {
        try {
          await api.call('boards.rename', { id, name });
          void get().loadBoards();
          return true;
        } catch (error) {
          get().reportError(error);
          return false;
        }
      },
      async deleteBoard(id) {
        try {
          await api.call('boards.delete', { id });
          set((s) => ({ boards: (s.boards ?? []).filter((b) => b.id !== id) }));
          void get().loadBoards();
        } catch (error) {
          get().reportError(error);
        }
      },
      async addToBoard(boardId, target) {
        const board = get().boards?.find((b) => b.id === boardId);
        try {
          const result = await api.call('boards.add', { boardId, ...targetInput(get(), target) });
          get().dismissTopic('curation');
          const undoId = result.undoId;
          get().toast({
            kind: 'info',
            message: `Added ${plural(result.updated, 'image')} to ${board?.name ?? 'the board'}.`,
            topic: 'curation',
            ...(undoId === null
              ? {}
              : { action: { label: 'Undo', run: () => void get().undoCuration(undoId, [], false) } }),
          });
          void get().loadBoards();
        } catch (error) {
          get().reportError(error);
        }
      },
      async removeFromBoard(boardId, target) {
        try {
          const board = get().boards?.find((b) => b.id === boardId);
          const result = await api.call('boards.remove', { boardId, ...targetInput(get(), target) });
          get().dismissTopic('curation');
          const undoId = result.undoId;
          get().toast({
            kind: 'info',
            message: `Removed ${plural(result.updated, 'image')} from ${board?.name ?? 'the board'}. They stay in the library.`,
            topic: 'curation',
            ...(undoId === null
              ? {}
              : { action: { label: 'Undo', run: () => void get().undoCuration(undoId, [], false) } }),
          });
          void get().loadBoards();
          void get().loadFirstPage();
        } catch (error) {
          get().reportError(error);
        }
      },
    };
  };
