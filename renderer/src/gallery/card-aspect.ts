import type { JobSummary } from '../../../shared/contract';
import { isTerminal } from '../common/contract-constants';
import { visibleImages, type ViewKind } from '../curation/curation';
import { batchAspect } from './batch-layout';

/** A failed, cancelled or interrupted job without a picture: a narrow card, never as big as a picture. */
export const COMPACT_ASPECT = 0.62;
/** Panoramas and slivers are shown cropped to these bounds, so one image never takes a whole row or vanishes. */
export const MIN_ASPECT = 0.4;
export const MAX_ASPECT = 2.5;
/** A batch of three wide pictures in a row may be wider than one panorama, never wider than this. */
export const MAX_BATCH_ASPECT = 4;

const clamp = (aspect: number) =>
  Number.isFinite(aspect) && aspect > 0 ? Math.min(MAX_ASPECT, Math.max(MIN_ASPECT, aspect)) : 1;
const clampBatch = (aspect: number) => Math.min(MAX_BATCH_ASPECT, Math.max(MIN_ASPECT, aspect));

/**
 * The card's width over height. A job still queued or running already has its final shape (the size it asked for),
 * and its first image keeps that shape, so a job finishing moves nothing. The first image, not the one in focus, so
 * stepping through a batch never reflows the grid. A batch shows all its pictures (./batch-layout.ts): a row of two
 * or three makes the card two or three pictures wide, and a running batch already has that shape from its count.
 */
export function cardAspect(job: JobSummary, view: ViewKind): number {
  const images = visibleImages(job, view);
  const first = images[0];
  const running = !isTerminal(job.status);
  // While it runs, a batch keeps the shape of all it asked for as its pictures arrive.
  const count = running ? Math.max(images.length, job.count ?? 1) : images.length;
  if (first !== undefined && first.width > 0 && first.height > 0)
    return clampBatch(batchAspect(count, clamp(first.width / first.height)));
  if (running) return clampBatch(batchAspect(count, clamp(job.width / job.height)));
  return COMPACT_ASPECT;
}

/** Whether the card shows a picture (or its live render) rather than the compact failure line. */
export function isCompactCard(job: JobSummary, view: ViewKind): boolean {
  return isTerminal(job.status) && visibleImages(job, view).length === 0;
}
