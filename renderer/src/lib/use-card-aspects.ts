import { useMemo, useRef } from 'react';
import type { JobSummary } from '../../../shared/contract';
import { useApp } from '../store/context';
import { cardAspect } from './card-aspect';
import type { ViewKind } from './curation';

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

/**
 * Each card's aspect in grid order, as the same array for as long as no aspect changes: a favourite or a rating
 * replaces a job's summary but not its shape, and must not make the grid re-pack its rows.
 */
export function useCardAspects(order: readonly string[], view: ViewKind): readonly number[] {
  const byId = useApp((s) => s.jobs.byId);
  const previous = useRef<readonly number[]>([]);
  // Memoized: the grid re-renders on every scroll frame, and the order may hold 60,000 ids.
  return useMemo(() => {
    const next = order.map((id) => aspectOf(byId[id], view));
    const last = previous.current;
    if (next.length !== last.length || next.some((a, i) => a !== last[i])) previous.current = next;
    return previous.current;
  }, [byId, order, view]);
}
