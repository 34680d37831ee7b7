import type { JobSummary } from '../../../shared/contract';
import { visibleImages, type ViewKind } from '../curation/curation';

/**
 * Details' "Image" row: where the open image sits among the images its card and the viewer show ("3 of 3", as the
 * viewer's "Image 3 of 3"), then what they leave out ("1 in the trash"), so the two never count differently.
 */
export function imagePlace(job: JobSummary, view: ViewKind, imageId: string | undefined): string {
  const shown = visibleImages(job, view);
  const at = shown.findIndex((i) => i.id === imageId);
  const place = at === -1 ? `${shown.length}` : `${at + 1} of ${shown.length}`;
  const notes: string[] = [];
  if (view === 'active') {
    const trashed = job.images.filter((i) => i.trashed === true).length;
    const rejected = job.images.length - trashed - shown.length;
    if (trashed > 0) notes.push(`${trashed} in the trash`);
    if (rejected > 0) notes.push(`${rejected} rejected`);
  } else {
    const outside = job.images.length - shown.length;
    if (outside > 0) notes.push(`${outside} outside the trash`);
  }
  const unmade = job.count - job.images.length;
  if (job.source === 'atelier' && job.status !== 'queued' && job.status !== 'running' && unmade > 0)
    notes.push(`${unmade} of ${job.count} not made`);
  return notes.length === 0 ? place : `${place} · ${notes.join(' · ')}`;
}
