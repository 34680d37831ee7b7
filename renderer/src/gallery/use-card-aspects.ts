import { useState } from 'react';
import type { JobSummary } from '../../../shared/contract';
import { useJobIndex } from '../store/context';
import type { JobIndex } from '../store/jobs-model';
import { cardAspect } from './card-aspect';
import type { ViewKind } from '../curation/curation';

// A summary object is replaced whenever its job changes, so its aspect is computed once per version.
const cache = new WeakMap<JobSummary, { view: ViewKind; aspect: number }>();

function aspectOf(job: JobSummary | undefined, view: ViewKind): number {
  if (job === undefined) return 1;
  const hit = cache.get(job);
  if (hit !== undefined && hit.view === view) return hit.aspect;
  const aspect = cardAspect(job, view);
  cache.set(job, { view, aspect });
  return aspect;
}

export interface PublishedAspects {
  list: readonly number[];
  byId: Map<string, number>;
  view: ViewKind;
}

/**
 * Each card's aspect in grid order, as the same list for as long as no aspect changes: a favourite or a rating
 * replaces a job's summary but not its shape, and must not make the grid re-pack its rows. While `hold` is on (the
 * person has scrolled away from the top) a card keeps the shape it was shown with, so a job failing above the view
 * never moves what the person is looking at; the new shapes apply once they are back at the top.
 */
export function publishAspects(
  last: PublishedAspects,
  order: readonly string[],
  byId: Record<string, JobSummary>,
  view: ViewKind,
  hold: boolean,
): PublishedAspects {
  const keep = hold && last.view === view;
  const list = order.map((id) => (keep ? last.byId.get(id) : undefined) ?? aspectOf(byId[id], view));
  if (list.length === last.list.length && list.every((a, i) => a === last.list[i])) return last;
  return { list, byId: new Map(order.map((id, i) => [id, list[i]!])), view };
}

interface AspectsFor {
  order: readonly string[];
  index: JobIndex;
  view: ViewKind;
  hold: boolean;
  published: PublishedAspects;
}

export function useCardAspects(order: readonly string[], view: ViewKind, hold: boolean): readonly number[] {
  // Through the index's version: a page of jobs added in place leaves byId the same object.
  const index = useJobIndex();
  // Kept in state and worked out again only when an input changes (adjusted while rendering): the grid re-renders on
  // every scroll frame, and the order may hold 60,000 ids.
  const [last, setLast] = useState<AspectsFor>(() => ({
    order,
    index,
    view,
    hold,
    published: publishAspects({ list: [], byId: new Map(), view }, order, index.byId, view, hold),
  }));
  if (last.order === order && last.index === index && last.view === view && last.hold === hold)
    return last.published.list;
  const next: AspectsFor = {
    order,
    index,
    view,
    hold,
    published: publishAspects(last.published, order, index.byId, view, hold),
  };
  setLast(next);
  return next.published.list;
}
