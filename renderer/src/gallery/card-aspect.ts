import type { JobSummary } from '../../../shared/contract';
import { isTerminal } from '../common/contract-constants';
import { visibleImages, type ViewKind } from '../curation/curation';

/** A failed, cancelled or interrupted job without a picture: a narrow card, never as big as a picture. */
export const COMPACT_ASPECT = 0.62;
/** Panoramas and slivers are shown cropped to these bounds, so one image never takes a whole row or vanishes. */
export const MIN_ASPECT = 0.4;
export const MAX_ASPECT = 2.5;

const clamp = (aspect: number) =>
  Number.isFinite(aspect) && aspect > 0 ? Math.min(MAX_ASPECT, Math.max(MIN_ASPECT, aspect)) : 1;

/**
 * The card's width over height. A job still queued or running already has its final shape (the size it asked for),
 * and its first image keeps that shape, so a job finishing moves nothing. The first image, not the one in focus, so
 * stepping through a batch never reflows the grid.
 */
export function cardAspect(job: JobSummary, view: ViewKind): number {
  const first = visibleImages(job, view)[0];
  if (first !== undefined && first.width > 0 && first.height > 0) return clamp(first.width / first.height);
  if (!isTerminal(job.status)) return clamp(job.width / job.height);
  return COMPACT_ASPECT;
}

/** Whether the card shows a picture (or its live render) rather than the compact failure line. */
export function isCompactCard(job: JobSummary, view: ViewKind): boolean {
  return isTerminal(job.status) && visibleImages(job, view).length === 0;
}
