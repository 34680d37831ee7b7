import type { ImageSource, JobStatus, JobSummary, ListQuery, MatchQuery, Sort } from '../../../shared/contract';
import { isTerminal } from '../common/contract-constants';
import { allImagesTrashed, allShownRejected, asksForRejected } from '../curation/curation';
import { foldForSearch } from '../../../shared/search-fold';

export type View = 'all' | 'favorites' | 'trash';

export interface Filters {
  view: View;
  status: JobStatus[];
  provider: string | null;
  /** The tool the images came from (Atelier itself, or the generator of an imported file). */
  source: ImageSource | null;
  search: string;
  sort: Sort;
  /** The random order's seed: kept while the person scrolls, new each time they pick Random. */
  shuffle: number;
}

export const DEFAULT_FILTERS: Filters = {
  view: 'all',
  status: [],
  provider: null,
  source: null,
  search: '',
  sort: 'newest',
  shuffle: 0,
};

/** The list's filters and search without its page or order: what a bulk action on "all matches" covers. */
export function toMatchQuery(filters: Filters): MatchQuery {
  const query: MatchQuery = { view: filters.view === 'trash' ? 'trash' : 'active' };
  if (filters.view === 'favorites') query.favorite = true;
  if (filters.status.length > 0) query.status = [...filters.status];
  if (filters.provider !== null) query.provider = filters.provider;
  if (filters.source !== null) query.source = filters.source;
  const search = filters.search.trim();
  if (search !== '') query.search = search;
  return query;
}

/** Which query a set of counts answers: counts for an older search are not this one's. */
export function countsKeyOf(filters: Filters): string {
  return JSON.stringify(toMatchQuery(filters));
}

/** Only newest-first can place a job that arrives by event; any other order waits for the next fetch. */
export function placesArrivals(filters: Filters): boolean {
  return filters.sort === 'newest';
}

/** Case and accents folded by the engine's own function: `cervena` finds `červená`, in either place. */
const fold = foldForSearch;

/** Plain words only: the client can tell whether a prompt matches; a typed key, quote, `-` or `|` it cannot. */
function plainWords(search: string): string[] | null {
  const terms = fold(search).trim().split(/\s+/).filter(Boolean);
  return terms.some((t) => /[:"|]|^-/u.test(t)) ? null : terms;
}
export const PAGE_SIZE = 120;
/** Pages after the first are the largest the contract allows: a fast scroll needs fewer round trips. */
export const NEXT_PAGE_SIZE = 200;

export function toListQuery(filters: Filters, cursor?: string, limit = PAGE_SIZE): ListQuery {
  const query: ListQuery = { ...toMatchQuery(filters), limit, view: filters.view === 'trash' ? 'trash' : 'active' };
  if (cursor !== undefined) query.cursor = cursor;
  if (filters.sort !== 'newest') query.sort = filters.sort;
  if (filters.sort === 'random') query.shuffle = filters.shuffle;
  return query;
}

/** Client-side twin of the server's filter, used only to place a job that arrives by event. */
export function matchesFilters(job: JobSummary, filters: Filters): boolean {
  const inTrash = job.trashedAt !== null || job.images.some((i) => i.trashed === true);
  if (filters.view === 'trash' ? !inTrash : job.trashedAt !== null || allImagesTrashed(job)) return false;
  if (filters.view === 'favorites' && !job.favorite) return false;
  if (filters.status.length > 0 && !filters.status.includes(job.status)) return false;
  if (filters.provider !== null && job.provider !== filters.provider) return false;
  if (filters.source !== null && job.source !== filters.source) return false;
  const terms = plainWords(filters.search);
  // A query the client cannot judge: the engine's answer placed the job, an event only updates it (see placeable).
  if (terms === null) return true;
  if (terms.length > 0) {
    const prompt = fold(job.prompt);
    if (!terms.every((term) => prompt.includes(term))) return false;
  }
  return true;
}

/** Whether an event may add this job to the grid: only when the client can judge the search and place the order. */
export function placeable(filters: Filters): boolean {
  return placesArrivals(filters) && plainWords(filters.search) !== null;
}

/**
 * A job whose every image is rejected leaves the default view when an event says so (a page already comes without
 * it: the engine applies the same rule), unless the search asks for rejects.
 */
export function hiddenAsRejected(job: JobSummary, filters: Filters): boolean {
  return filters.view !== 'trash' && allShownRejected(job) && !asksForRejected(filters.search);
}

/** Queued and running jobs are cards in the grid too, in their place by age: finishing moves nothing. */
export function belongsInGrid(job: JobSummary, filters: Filters): boolean {
  return matchesFilters(job, filters);
}

export function belongsInQueue(job: JobSummary): boolean {
  return !isTerminal(job.status) && job.trashedAt === null;
}

/** Newest first; ids are UUIDv7 so they break ties in creation order. */
export function compareNewestFirst(a: JobSummary, b: JobSummary): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
