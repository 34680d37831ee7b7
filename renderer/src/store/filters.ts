import type { ImageSource, JobStatus, JobSummary, ListQuery } from '../../../shared/contract';
import { isTerminal } from '../lib/contract-constants';

export type View = 'all' | 'favorites' | 'trash';

export interface Filters {
  view: View;
  status: JobStatus[];
  provider: string | null;
  /** The tool the images came from (Atelier itself, or the generator of an imported file). */
  source: ImageSource | null;
  search: string;
}

export const DEFAULT_FILTERS: Filters = { view: 'all', status: [], provider: null, source: null, search: '' };
export const PAGE_SIZE = 120;
/** Pages after the first are the largest the contract allows: a fast scroll needs fewer round trips. */
export const NEXT_PAGE_SIZE = 200;

export function toListQuery(filters: Filters, cursor?: string, limit = PAGE_SIZE): ListQuery {
  const query: ListQuery = { limit, view: filters.view === 'trash' ? 'trash' : 'active' };
  if (cursor !== undefined) query.cursor = cursor;
  if (filters.view === 'favorites') query.favorite = true;
  if (filters.status.length > 0) query.status = [...filters.status];
  if (filters.provider !== null) query.provider = filters.provider;
  if (filters.source !== null) query.source = filters.source;
  const search = filters.search.trim();
  if (search !== '') query.search = search;
  return query;
}

/** Client-side twin of the server's filter, used only to place a job that arrives by event. */
export function matchesFilters(job: JobSummary, filters: Filters): boolean {
  if (filters.view === 'trash' ? job.trashedAt === null : job.trashedAt !== null) return false;
  if (filters.view === 'favorites' && !job.favorite) return false;
  if (filters.status.length > 0 && !filters.status.includes(job.status)) return false;
  if (filters.provider !== null && job.provider !== filters.provider) return false;
  if (filters.source !== null && job.source !== filters.source) return false;
  const terms = filters.search.trim().toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length > 0) {
    const prompt = job.prompt.toLocaleLowerCase();
    if (!terms.every((term) => prompt.includes(term))) return false;
  }
  return true;
}

/** Queued and running jobs live in the queue panel; the grid shows them only when a status filter asks for them. */
export function belongsInGrid(job: JobSummary, filters: Filters): boolean {
  if (!matchesFilters(job, filters)) return false;
  return filters.status.length > 0 || isTerminal(job.status);
}

export function belongsInQueue(job: JobSummary): boolean {
  return !isTerminal(job.status) && job.trashedAt === null;
}

/** Newest first; ids are UUIDv7 so they break ties in creation order. */
export function compareNewestFirst(a: JobSummary, b: JobSummary): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
