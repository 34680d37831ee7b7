import type { JobSummary } from '../../../shared/contract';
import type { Api } from '../api';
import { failureToastMessage, justFailed, needsFailureToast } from '../live/failure-notice';
import { cardOnScreen, pageHidden } from '../live/on-screen';
import type { AppStore } from './store';

const STATS_DEBOUNCE_MS = 400;
/** A stream of events (an import) would put the refresh off for ever: past this, the pending one stands. */
export const STATS_MAX_WAIT_MS = 2_000;
/** Long enough for the grid to draw the failed card where it now belongs. */
const NOTICE_DELAY_MS = 250;
/** While the engine's start-up library check (or a rebuild) runs, stats are asked for again this often, this many times. */
const RECHECK_MS = 1_500;
const MAX_RECHECKS = 40;
/** A running import quiet this long is asked for again: an event may have been missed (a stream not yet open). */
export const IMPORT_QUIET_MS = 3_000;
/** Imported jobs arrive hundreds a second during an import: the grid takes them in one update this often. */
export const IMPORTED_BATCH_MS = 100;

export interface WireOptions {
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  /** Where the person is looking (the DOM by default). */
  attention?: { hidden(): boolean; onScreen(id: string): boolean };
  now?: () => number;
}

/**
 * Wires engine events into the store once, outside React. Order matters: subscribe first, then fetch, so an event
 * that lands while the first page is in flight is held in the store and reconciled by updatedAt, never lost.
 */
export function wireEvents(store: AppStore, api: Api, options: WireOptions = {}): () => void {
  const later = options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
  const cancel = options.clearTimeout ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const now = options.now ?? (() => Date.now());
  let statsTimer: unknown = null;
  let statsSince = 0;
  const refreshStatsSoon = () => {
    if (statsTimer !== null) {
      if (now() - statsSince >= STATS_MAX_WAIT_MS) return;
      cancel(statsTimer);
    } else statsSince = now();
    statsTimer = later(() => {
      statsTimer = null;
      void store.getState().loadStats();
      refreshCuration(store);
    }, STATS_DEBOUNCE_MS);
  };

  const attention = options.attention ?? { hidden: pageHidden, onScreen: cardOnScreen };
  // Once per job, however often its failure is replayed (a reconnect, a second client).
  const noticed = new Set<string>();
  const noticeFailure = (previous: JobSummary | undefined, job: JobSummary): void => {
    if (noticed.has(job.id) || !justFailed(previous, job)) return;
    noticed.add(job.id);
    later(() => {
      const s = store.getState();
      const covered = s.viewerId !== null || s.panel !== 'none';
      if (!needsFailureToast({ hidden: attention.hidden(), covered, onScreen: attention.onScreen(job.id) })) return;
      s.toast({
        kind: 'error',
        message: failureToastMessage(job),
        action: { label: 'Show', run: () => void store.getState().revealJob(job.id) },
      });
    }, NOTICE_DELAY_MS);
  };
  let rechecks = 0;
  let recheckTimer: unknown = null;
  const offStats = store.subscribe((state, previous) => {
    if (state.stats === previous.stats || state.stats === null) return;
    const busy = state.stats.recovery.state === 'checking' || state.stats.recovery.state === 'rebuilding';
    if (!busy) rechecks = 0;
    if (!busy || recheckTimer !== null || rechecks >= MAX_RECHECKS) return;
    rechecks += 1;
    recheckTimer = later(() => {
      recheckTimer = null;
      void store.getState().loadStats();
    }, RECHECK_MS);
  });

  // Imported jobs (never running, never failing here) wait a moment and land together; Atelier's own go at once.
  let arrivals: JobSummary[] = [];
  let arrivalsTimer: unknown = null;
  const flushArrivals = () => {
    arrivalsTimer = null;
    const batch = arrivals;
    arrivals = [];
    store.getState().applyJobsChanged(batch);
    refreshStatsSoon();
  };

  let importTimer: unknown = null;
  const offImports = store.subscribe((state, previous) => {
    if (state.imports === previous.imports) return;
    if (importTimer !== null) cancel(importTimer);
    importTimer = null;
    const running = state.imports.order.some((id) => state.imports.byId[id]?.status === 'running');
    if (!running) return;
    importTimer = later(() => {
      importTimer = null;
      void store.getState().loadImports();
    }, IMPORT_QUIET_MS);
  });

  const offs = [
    offStats,
    offImports,
    api.on('jobs.changed', ({ job }) => {
      if (job.source !== 'atelier') {
        arrivals.push(job);
        arrivalsTimer ??= later(flushArrivals, IMPORTED_BATCH_MS);
        return;
      }
      const state = store.getState();
      const previous = state.jobs.byId[job.id];
      state.applyJobChanged(job);
      trackProviderHealth(store, job);
      noticeFailure(previous, job);
      refreshStatsSoon();
      state.loadQueueSoon();
    }),
    api.on('jobs.progress', (tick) => store.getState().applyProgress(tick)),
    api.on('jobs.queue', ({ waiting }) => store.getState().applyQueueWaiting(waiting)),
    api.on('queue.control', (control) => store.getState().applyQueueControl(control)),
    // A curation action, an undo or a rename (here or in another window): counts, boards and tags refetch.
    api.on('library.curated', () => refreshStatsSoon()),
    api.on('library.importProgress', (event) => store.getState().applyImportProgress(event)),
    api.on('library.rereadProgress', (progress) => store.getState().applyRereadProgress(progress)),
    api.onMenuCommand((command) => {
      if (command === 'import') store.getState().openImportDialog();
    }),
    api.on('jobs.removed', ({ ids }) => {
      store.getState().applyRemoved(ids);
      refreshStatsSoon();
      store.getState().loadQueueSoon();
    }),
    api.onConnectionChange((online) => store.getState().setOnline(online)),
    // Events may have been missed while the stream was down: the first page and the queue are the truth again.
    api.onReconnect(() => void refreshAll(store)),
  ];

  // The first page goes out alone: the host answers one call at a time, and the grid is what the person waits for.
  void refreshAll(store).then(() => store.getState().loadSettings());

  return () => {
    for (const off of offs) off();
    if (statsTimer !== null) cancel(statsTimer);
    if (recheckTimer !== null) cancel(recheckTimer);
    if (importTimer !== null) cancel(importTimer);
    if (arrivalsTimer !== null) cancel(arrivalsTimer);
  };
}

async function refreshAll(store: AppStore): Promise<void> {
  const state = store.getState();
  await state.loadFirstPage();
  await Promise.all([state.loadLive(), state.loadStats(), state.loadImports(), state.loadQueue()]);
}

/** Counts that follow the query, and the boards' and tags' counts, once they have been shown. */
function refreshCuration(store: AppStore): void {
  const state = store.getState();
  if (state.counts !== null) void state.loadCounts();
  if (state.boards !== null) void state.loadBoards();
  if (state.tags !== null) void state.loadTags();
}

const DOWN_CODES = new Set(['provider_unavailable', 'timeout', 'provider_auth']);

function trackProviderHealth(store: AppStore, job: JobSummary): void {
  const { providerDown } = store.getState();
  if (job.status === 'failed' && job.error !== undefined && DOWN_CODES.has(job.error.code)) {
    if (providerDown[job.provider] !== job.error.message) {
      store.setState({ providerDown: { ...providerDown, [job.provider]: job.error.message } });
    }
  } else if (job.status === 'succeeded' && providerDown[job.provider] !== undefined) {
    const next = { ...providerDown };
    delete next[job.provider];
    store.setState({ providerDown: next });
  }
  // A success where the list still says Failing or Not tested: the engine now says Ready, so fetch what it says.
  const listed = store.getState().providers.find((p) => p.id === job.provider);
  if (
    job.status === 'succeeded' &&
    listed !== undefined &&
    listed.status.state !== 'ready' &&
    job.updatedAt === job.completedAt
  ) {
    void store.getState().refreshProviders();
  }
}
