import type { JobProgressEvent, JobSummary, ListPage } from '../../../shared/contract';
import {
  belongsInGrid,
  belongsInQueue,
  compareNewestFirst,
  hiddenAsRejected,
  placeable,
  placesArrivals,
  type Filters,
} from './filters';

/**
 * Everything the renderer knows about jobs, as plain data with pure transitions. The rule that makes events and
 * fetches commute: a job replaces what the store holds only when its `updatedAt` is newer.
 */
export interface JobsData {
  byId: Record<string, JobSummary>;
  /**
   * Bumps whenever `byId` gains jobs in place (a page of ids it never held: see appendItems), where the object stays the
   * same. A selector of `byId` alone misses those: read the index through `selectJobIndex` (useJobIndex).
   */
  byIdVersion: number;
  /** Ids shown in the grid, newest first. */
  order: string[];
  nextCursor: string | null;
  /** Queued and running jobs, oldest first (the one running now on top). */
  liveIds: string[];
  progress: Record<string, JobProgressEvent>;
  /** Purged ids: a page fetched before the purge must not bring them back. */
  removed: Record<string, true>;
  /** New arrivals held back while the person is scrolled away from the top, so nothing moves under them. */
  pendingTop: string[];
  holdArrivals: boolean;
  /** Ids touched by events while a first-page fetch was in flight: the fetch's snapshot may predate them. */
  touchedDuringFetch: string[] | null;
  /**
   * Jobs started while the filters, search or order hide them, newest first: shown above the grid with "not in this
   * view" until the filters change, they are dismissed, or the grid shows them itself.
   */
  pinned: string[];
}

export const EMPTY_JOBS: JobsData = {
  // Frozen: the page append below adds to an index in place, and this one is shared by every fresh store.
  byId: Object.freeze({}) as Record<string, JobSummary>,
  byIdVersion: 0,
  order: [],
  nextCursor: null,
  liveIds: [],
  progress: {},
  removed: {},
  pendingTop: [],
  holdArrivals: false,
  touchedDuringFetch: null,
  pinned: [],
};

/** The most pinned at once: a long batch of prompts under a filter keeps its newest in view, not a wall above the grid. */
export const MAX_PINNED = 24;

/** New work: a job of Atelier's own that has not run yet (an import or a finished job found later is not). */
function justStarted(job: JobSummary): boolean {
  return job.source === 'atelier' && job.trashedAt === null && (job.status === 'queued' || job.status === 'running');
}

/**
 * A rating, favourite, tag or image trashed leaves the job's updatedAt as it was (curation is the person's, not the
 * job's), and a page shows only the images its view holds: at an equal updatedAt the images decide.
 */
function isNewer(incoming: JobSummary, held: JobSummary | undefined): boolean {
  if (held === undefined || incoming.updatedAt > held.updatedAt) return true;
  return incoming.updatedAt === held.updatedAt && incoming !== held && !sameImages(incoming, held);
}

function sameImages(a: JobSummary, b: JobSummary): boolean {
  if (a.images === b.images) return true;
  if (a.images.length !== b.images.length || a.favorite !== b.favorite) return false;
  return a.images.every((image, i) => {
    const other = b.images[i]!;
    return (
      image.id === other.id &&
      image.rating === other.rating &&
      image.favorite === other.favorite &&
      image.trashed === other.trashed &&
      image.thumbPending === other.thumbPending &&
      (image.tags ?? []).join('\u0000') === (other.tags ?? []).join('\u0000')
    );
  });
}

function insertSorted(ids: string[], id: string, byId: Record<string, JobSummary>): string[] {
  const job = byId[id]!;
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareNewestFirst(byId[ids[mid]!]!, job) < 0) lo = mid + 1;
    else hi = mid;
  }
  const next = ids.slice();
  next.splice(lo, 0, id);
  return next;
}

/** Whether a job sorts inside what has been loaded (beyond it, the next page will bring it). */
function withinLoadedRange(data: JobsData, job: JobSummary, byId: Record<string, JobSummary>): boolean {
  if (data.nextCursor === null) return true;
  const lastId = data.order[data.order.length - 1];
  if (lastId === undefined) return false;
  return compareNewestFirst(job, byId[lastId]!) < 0;
}

/** The jobs index with its version: a new object whenever either changes, for a shallow-compared selector. */
export interface JobIndex {
  byId: Record<string, JobSummary>;
  version: number;
}

/** The index for a subscriber: compared shallowly, a page added to `byId` in place is a change (the version moved). */
export function selectJobIndex(data: JobsData): JobIndex {
  return { byId: data.byId, version: data.byIdVersion };
}

/** Applies a `jobs.changed` event. */
export function applyJobChanged(data: JobsData, job: JobSummary, filters: Filters): JobsData {
  return applyInto(data, job, filters, null);
}

/**
 * A burst of changes that land together (imported or re-read jobs): the same as applying each in turn, with one copy
 * of the index for the burst. Copying `byId` per job made a burst of a few hundred cost that many copies of every
 * loaded job, and a fling stutter while a library was re-read.
 */
export function applyJobsChanged(data: JobsData, jobs: readonly JobSummary[], filters: Filters): JobsData {
  if (jobs.length < 2) return jobs.length === 0 ? data : applyJobChanged(data, jobs[0]!, filters);
  const byId = { ...data.byId };
  let next: JobsData = { ...data, byId };
  for (const job of jobs) next = applyInto(next, job, filters, byId);
  return next;
}

/** One job into the data; `owned` is a copy of the index this burst may write in place (null: copy it here). */
function applyInto(
  data: JobsData,
  job: JobSummary,
  filters: Filters,
  owned: Record<string, JobSummary> | null,
): JobsData {
  if (data.removed[job.id]) return data;
  const held = data.byId[job.id];
  if (!isNewer(job, held)) return data;
  let byId: Record<string, JobSummary>;
  if (owned === null) byId = { ...data.byId, [job.id]: job };
  else {
    owned[job.id] = job;
    byId = owned;
  }
  const next: JobsData = { ...data, byId };
  if (data.touchedDuringFetch !== null && !data.touchedDuringFetch.includes(job.id)) {
    next.touchedDuringFetch = [...data.touchedDuringFetch, job.id];
  }
  next.liveIds = placeLiveOrdered(data.liveIds, job, byId);
  if (!belongsInQueue(job) && data.progress[job.id] !== undefined) {
    const { [job.id]: _dropped, ...progress } = data.progress;
    next.progress = progress;
  }
  const shown = data.order.includes(job.id);
  const pending = data.pendingTop.includes(job.id);
  let inView = shown || pending;
  // A card on screen stays while the person curates it (a rating under `rating:0`): the next fetch has the last word.
  const stays = shown && filters.search.trim() !== '' && belongsInGrid(job, { ...filters, search: '' });
  if (!hiddenAsRejected(job, filters) && (stays || belongsInGrid(job, filters))) {
    if (!shown && !pending && placeable(filters) && withinLoadedRange(data, job, byId)) {
      inView = true;
      if (data.holdArrivals && data.order.length > 0 && compareNewestFirst(job, byId[data.order[0]!]!) < 0) {
        next.pendingTop = insertSorted(data.pendingTop, job.id, byId);
      } else {
        next.order = insertSorted(data.order, job.id, byId);
      }
    }
  } else {
    inView = false;
    if (shown) next.order = data.order.filter((id) => id !== job.id);
    if (pending) next.pendingTop = data.pendingTop.filter((id) => id !== job.id);
  }
  next.pinned = pinnedAfter(data.pinned, job, held === undefined, inView);
  return next;
}

/** New work the grid does not show is pinned; once the grid shows it, or it goes to the trash, it is not. */
function pinnedAfter(pinned: string[], job: JobSummary, isNew: boolean, inView: boolean): string[] {
  const at = pinned.indexOf(job.id);
  if (at !== -1) return inView || job.trashedAt !== null ? pinned.filter((id) => id !== job.id) : pinned;
  if (!isNew || inView || !justStarted(job)) return pinned;
  return [job.id, ...pinned].slice(0, MAX_PINNED);
}

/** The filters changed: nothing is pinned any longer. */
export function clearPinned(data: JobsData): JobsData {
  return data.pinned.length === 0 ? data : { ...data, pinned: [] };
}

export function dismissPinned(data: JobsData, id: string): JobsData {
  return data.pinned.includes(id) ? { ...data, pinned: data.pinned.filter((each) => each !== id) } : data;
}

function placeLiveOrdered(liveIds: string[], job: JobSummary, byId: Record<string, JobSummary>): string[] {
  const present = liveIds.includes(job.id);
  if (!belongsInQueue(job)) return present ? liveIds.filter((id) => id !== job.id) : liveIds;
  if (present) return liveIds;
  const next = [...liveIds, job.id];
  next.sort((a, b) => -compareNewestFirst(byId[a]!, byId[b]!));
  return next;
}

/** Applies a `jobs.progress` tick; ticks for jobs already finished are stale and dropped. */
export function applyProgress(data: JobsData, tick: JobProgressEvent): JobsData {
  const job = data.byId[tick.id];
  if (data.removed[tick.id] || (job !== undefined && !belongsInQueue(job))) return data;
  return { ...data, progress: { ...data.progress, [tick.id]: tick } };
}

/** Applies `jobs.removed` (purged for good). */
export function applyRemoved(data: JobsData, ids: readonly string[]): JobsData {
  const gone = new Set(ids);
  const byId = { ...data.byId };
  const progress = { ...data.progress };
  const removed = { ...data.removed };
  for (const id of ids) {
    delete byId[id];
    delete progress[id];
    removed[id] = true;
  }
  return {
    ...data,
    byId,
    progress,
    removed,
    order: data.order.filter((id) => !gone.has(id)),
    liveIds: data.liveIds.filter((id) => !gone.has(id)),
    pendingTop: data.pendingTop.filter((id) => !gone.has(id)),
    pinned: data.pinned.filter((id) => !gone.has(id)),
  };
}

/** Marks the start of a first-page fetch. */
export function beginFirstPage(data: JobsData): JobsData {
  return { ...data, touchedDuringFetch: [] };
}

function mergeItems(data: JobsData, items: readonly JobSummary[]): Record<string, JobSummary> {
  const byId = { ...data.byId };
  for (const item of items) {
    if (data.removed[item.id]) continue;
    if (isNewer(item, byId[item.id])) byId[item.id] = item;
  }
  return byId;
}

/** Replaces the grid with a fresh first page, keeping whatever events brought in while it was in flight. */
export function applyFirstPage(data: JobsData, page: ListPage, filters: Filters): JobsData {
  const { byId, byIdVersion } = appendItems(data, page.items);
  // The engine matched the search (accents, metadata, typed keys): its items need only the client's other checks.
  const unsearched = { ...filters, search: '' };
  const fromPage = page.items
    .filter((item) => !data.removed[item.id] && belongsInGrid(byId[item.id]!, unsearched))
    .map((item) => item.id);
  if (!placesArrivals(filters)) {
    // Another order than newest first: the page's order is the truth, events only update what it shows.
    return {
      ...data,
      byId,
      byIdVersion,
      order: fromPage,
      nextCursor: page.nextCursor,
      pendingTop: [],
      touchedDuringFetch: null,
      pinned: notShown(data.pinned, fromPage),
    };
  }
  const candidates = new Set<string>(fromPage);
  for (const id of data.touchedDuringFetch ?? []) {
    if (byId[id] !== undefined && placeable(filters) && belongsInGrid(byId[id], filters)) candidates.add(id);
  }
  let order = [...candidates];
  order.sort((a, b) => compareNewestFirst(byId[a]!, byId[b]!));
  const lastOfPage = page.items[page.items.length - 1];
  if (page.nextCursor !== null && lastOfPage !== undefined) {
    // Beyond the page's last item the next page is the authority.
    order = order.filter((id) => compareNewestFirst(byId[id]!, lastOfPage) <= 0);
  }
  return {
    ...data,
    byId,
    byIdVersion,
    order,
    nextCursor: page.nextCursor,
    pendingTop: [],
    touchedDuringFetch: null,
    pinned: notShown(data.pinned, order),
  };
}

/** The pinned jobs a page does not show (one it shows is in the grid, where it belongs). */
function notShown(pinned: string[], order: readonly string[]): string[] {
  if (pinned.length === 0) return pinned;
  const shown = new Set(order);
  const kept = pinned.filter((id) => !shown.has(id));
  return kept.length === pinned.length ? pinned : kept;
}

/**
 * The infinite scroll's merge. Copying an index of 60,000 jobs for every page of 120 made long scrolls quadratic, so
 * when a page brings only ids this index has never held it adds them in place: no earlier snapshot refers to those ids,
 * so sharing the object changes nothing any snapshot shows. A page that would replace a held job copies as before.
 */
function appendItems(
  data: JobsData,
  items: readonly JobSummary[],
): { byId: Record<string, JobSummary>; byIdVersion: number; allNew: boolean } {
  const held = data.byId;
  const allNew = items.every((item) => held[item.id] === undefined);
  // Search results are mostly jobs already held at the same version: those need no write either.
  const noReplacement = allNew || items.every((item) => held[item.id] === undefined || !isNewer(item, held[item.id]));
  if (held === EMPTY_JOBS.byId || !noReplacement)
    return { byId: mergeItems(data, items), byIdVersion: data.byIdVersion, allNew };
  let added = false;
  for (const item of items)
    if (!data.removed[item.id] && held[item.id] === undefined) {
      held[item.id] = item;
      added = true;
    }
  // Written in place: the version tells the subscribers, the object cannot.
  return { byId: held, byIdVersion: added ? data.byIdVersion + 1 : data.byIdVersion, allNew };
}

/** Appends the next page of the infinite scroll. */
export function applyNextPage(data: JobsData, page: ListPage, filters: Filters): JobsData {
  const { byId, byIdVersion, allNew } = appendItems(data, page.items);
  // Ids the index never held cannot be in the grid: no need for a set of the whole order.
  const seen = allNew ? null : new Set(data.order);
  const added: string[] = [];
  for (const item of page.items) {
    if (seen?.has(item.id) === true || data.removed[item.id]) continue;
    if (belongsInGrid(byId[item.id]!, { ...filters, search: '' })) added.push(item.id);
  }
  const order = data.order.concat(added);
  return { ...data, byId, byIdVersion, order, nextCursor: page.nextCursor, pinned: notShown(data.pinned, added) };
}

/** Loads the queue (queued + running jobs) from a fetch. */
export function applyLivePage(data: JobsData, items: readonly JobSummary[]): JobsData {
  const byId = mergeItems(data, items);
  let liveIds = data.liveIds;
  for (const item of items) {
    const job = byId[item.id];
    if (job !== undefined) liveIds = placeLiveOrdered(liveIds, job, byId);
  }
  return { ...data, byId, liveIds };
}

/** Holding on (scrolled away) or letting go (back at the top): letting go shows what was held. */
export function setHoldArrivals(data: JobsData, hold: boolean): JobsData {
  if (hold === data.holdArrivals) return data;
  if (hold) return { ...data, holdArrivals: true };
  return releaseArrivals({ ...data, holdArrivals: false });
}

export function releaseArrivals(data: JobsData): JobsData {
  if (data.pendingTop.length === 0) return data;
  let order = data.order;
  for (const id of data.pendingTop) if (!order.includes(id)) order = insertSorted(order, id, data.byId);
  return { ...data, order, pendingTop: [] };
}
