import type { JobSummary, TrashSummary } from '../../../shared/contract';
import { formatCount } from '../common/format';
import { visibleImages } from './curation';

/** Whole jobs and single images in the trash, as the Trash view shows them. */
export function trashContents(s: TrashSummary): string {
  const wholeImages = s.images - s.looseImages;
  const parts: string[] = [];
  if (s.jobs > 0)
    parts.push(
      wholeImages > 0
        ? `${formatCount(s.jobs, 'job')} (${formatCount(wholeImages, 'image')})`
        : formatCount(s.jobs, 'job'),
    );
  if (s.looseImages > 0) parts.push(formatCount(s.looseImages, s.jobs > 0 ? 'single image' : 'image'));
  return parts.length === 0 ? 'Nothing in the trash.' : `${parts.join(' and ')} in the trash.`;
}

/** Empty trash has something to remove: a job trashed whole (even one with no image) or a single image. */
export function canEmptyTrash(s: TrashSummary): boolean {
  return s.jobs > 0 || s.looseImages > 0;
}

/** What Empty trash deletes, in the confirmation: "1 job with 1 image and 2 single images". */
export function emptyTrashWhat(s: TrashSummary): string {
  const wholeImages = s.images - s.looseImages;
  const jobs = s.jobs > 0 ? `${formatCount(s.jobs, 'job')} with ${formatCount(wholeImages, 'image')}` : null;
  if (s.looseImages === 0) return jobs ?? 'nothing';
  const loose = formatCount(s.looseImages, jobs === null ? 'image' : 'single image');
  return jobs === null ? loose : `${jobs} and ${loose}`;
}

/** The toast once it is done: "4 jobs removed", "1 image removed". */
export function emptiedWhat(s: TrashSummary): string {
  const loose = s.looseImages > 0 ? formatCount(s.looseImages, s.jobs > 0 ? 'single image' : 'image') : null;
  const jobs = s.jobs > 0 ? formatCount(s.jobs, 'job') : null;
  return `${[jobs, loose].filter((w) => w !== null).join(' and ')} removed`;
}

/** What a Delete permanently… on these cards or images removes: trashed jobs whole, single trashed images alone. */
export interface PurgeTarget {
  ids: string[];
  imageIds: string[];
  /** Images the person sees go, and jobs with no image (a failed job): what the question counts. */
  images: number;
  emptyJobs: number;
}

/** From the picked cards (and, when one image of a card is picked, those images) in the trash view. */
export function purgeTargetOf(jobs: readonly JobSummary[], pickedImageIds: readonly string[] = []): PurgeTarget {
  const picked = new Set(pickedImageIds);
  const target: PurgeTarget = { ids: [], imageIds: [], images: 0, emptyJobs: 0 };
  for (const job of jobs) {
    const shown = visibleImages(job, 'trash');
    const chosen = shown.filter((i) => picked.has(i.id));
    // A job trashed whole goes whole unless only some of its images were picked.
    if (job.trashedAt !== null && (chosen.length === 0 || chosen.length === shown.length)) {
      target.ids.push(job.id);
      if (shown.length === 0) target.emptyJobs += 1;
      target.images += shown.length;
      continue;
    }
    const going = chosen.length > 0 ? chosen : shown;
    target.imageIds.push(...going.map((i) => i.id));
    target.images += going.length;
  }
  return target;
}

/** The counted question: "Delete 3 images permanently? This cannot be undone." */
export function purgeQuestion(t: PurgeTarget): string {
  const what = [
    t.images > 0 ? formatCount(t.images, 'image') : null,
    t.emptyJobs > 0 ? formatCount(t.emptyJobs, 'job') : null,
  ].filter((w) => w !== null);
  return `Delete ${what.join(' and ')} permanently? This cannot be undone.`;
}
