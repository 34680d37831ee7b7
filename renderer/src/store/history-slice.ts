import { AppError } from '../../../shared/errors';
import { mark } from '../app/perf-marks';
import { pruneSelection } from '../gallery/selection';
import { jobTitle } from '../common/thumbs';
import { clampWords } from '../live/failure-notice';
import type { SliceCreator } from './deps';
import { DEFAULT_FILTERS, NEXT_PAGE_SIZE, toListQuery } from './filters';
import * as model from './jobs-model';
import type { AppState, HistorySlice } from './types';

/** An unreadable search comes back as invalid_request with the place it went wrong. */
function searchErrorOf(error: unknown, text: string): { text: string; at: number; message: string } | null {
  if (!(error instanceof AppError) || error.code !== 'invalid_request' || text.trim() === '') return null;
  const at = error.details?.at;
  const message = error.details?.message;
  if (typeof at !== 'number') return null;
  return { text: text.trim(), at, message: typeof message === 'string' ? message : error.message };
}

/** Newly pinned work is announced once, with Show: the one click that clears the filters and brings it into view. */
function announcePinned(before: readonly string[], get: () => AppState): void {
  const { jobs, toast, showPinned } = get();
  if (jobs.pinned === before) return;
  const fresh = jobs.pinned.filter((id) => !before.includes(id));
  if (fresh.length === 0) return;
  const first = jobs.byId[fresh[0]!];
  const what =
    fresh.length === 1 && first !== undefined ? `“${clampWords(jobTitle(first), 48)}”` : `${fresh.length} jobs`;
  toast({
    kind: 'info',
    message: `Started ${what}: not in this view, so it is pinned above the grid.`,
    action: { label: 'Show', run: () => void showPinned(fresh[0]!) },
    replaces: 'pinned-work',
  });
}

export const createHistorySlice: SliceCreator<HistorySlice> =
  ({ api }) =>
  (set, get) => ({
    jobs: model.EMPTY_JOBS,
    filters: DEFAULT_FILTERS,
    historyState: 'loading',
    loadingMore: false,
    generation: 0,
    searchTyping: false,
    searchError: null,

    applyJobChanged: (job) => {
      const before = get().jobs.pinned;
      set((s) => ({ jobs: model.applyJobChanged(s.jobs, job, s.filters) }));
      announcePinned(before, get);
    },
    applyJobsChanged: (list) => {
      const before = get().jobs.pinned;
      set((s) => ({ jobs: model.applyJobsChanged(s.jobs, list, s.filters) }));
      announcePinned(before, get);
    },
    applyProgress: (tick) => set((s) => ({ jobs: model.applyProgress(s.jobs, tick) })),
    applyRemoved: (ids) =>
      set((s) => {
        const jobs = model.applyRemoved(s.jobs, ids);
        return { jobs, selection: pruneSelection(s.selection, jobs.order) };
      }),

    async loadFirstPage() {
      const generation = get().generation + 1;
      const filters = get().filters;
      set((s) => ({ generation, historyState: 'loading', jobs: model.beginFirstPage(s.jobs) }));
      try {
        if (generation === 1) mark('first-page-requested');
        const page = await api.call('jobs.list', toListQuery(filters));
        if (generation === 1) mark('first-page-received');
        if (get().generation !== generation) return;
        set((s) => {
          const jobs = model.applyFirstPage(s.jobs, page, s.filters);
          return { jobs, historyState: 'ready', searchError: null, selection: pruneSelection(s.selection, jobs.order) };
        });
        get().loadCountsSoon();
      } catch (error) {
        if (get().generation !== generation) return;
        const place = searchErrorOf(error, filters.search);
        if (place !== null) {
          // The results stay as they were: the person sees what they had, and what to fix under the box.
          set((s) => ({ historyState: 'ready', searchError: place, jobs: { ...s.jobs, touchedDuringFetch: null } }));
          return;
        }
        set((s) => ({ historyState: 'error', jobs: { ...s.jobs, touchedDuringFetch: null } }));
        get().reportError(error);
      }
    },

    async loadMore() {
      const { jobs, loadingMore, historyState, generation, filters } = get();
      if (loadingMore || historyState !== 'ready' || jobs.nextCursor === null) return;
      set({ loadingMore: true });
      try {
        const page = await api.call('jobs.list', toListQuery(filters, jobs.nextCursor, NEXT_PAGE_SIZE));
        if (get().generation !== generation) return;
        set((s) => ({ jobs: model.applyNextPage(s.jobs, page, s.filters) }));
      } catch (error) {
        get().reportError(error);
      } finally {
        if (get().generation === generation) set({ loadingMore: false });
        else set({ loadingMore: false });
      }
    },

    async loadLive() {
      try {
        const page = await api.call('jobs.list', { view: 'all', status: ['queued', 'running'], limit: 200 });
        set((s) => ({ jobs: model.applyLivePage(s.jobs, page.items) }));
      } catch (error) {
        get().reportError(error);
      }
    },

    // Other filters are another view: what was pinned as "not in this view" was about the last one.
    setFilters(patch) {
      set((s) => ({ filters: { ...s.filters, ...patch }, jobs: model.clearPinned(s.jobs) }));
      void get().loadFirstPage();
    },

    setSearch(text) {
      set((s) => ({
        filters: { ...s.filters, search: text },
        jobs: s.filters.search === text ? s.jobs : model.clearPinned(s.jobs),
      }));
      return get().loadFirstPage();
    },

    dismissPinned: (id) => set((s) => ({ jobs: model.dismissPinned(s.jobs, id) })),

    async showPinned(id) {
      set((s) => ({ filters: { ...DEFAULT_FILTERS }, jobs: model.clearPinned(s.jobs) }));
      await get().loadFirstPage();
      await get().revealJob(id);
    },

    holdArrivals: (hold) => set((s) => ({ jobs: model.setHoldArrivals(s.jobs, hold) })),
    showArrivals: () => set((s) => ({ jobs: model.releaseArrivals(s.jobs) })),
  });
