import type { JobSummary } from '../../../shared/contract';
import { visibleImages, type ViewKind } from '../curation/curation';
import { selectedIds, type Selection } from './selection';

/** What the selection bar offers depends on what is picked: one favourite toggle, Re-read for imported files only. */
export interface SelectionTraits {
  /** Some picked image is not a favourite: the toggle favourites them all; else it takes them all out. */
  anyNotFavorite: boolean;
  /** Some picked image came from another tool's file: only those have settings to read again. */
  anyImported: boolean;
}

export function selectionTraits(
  selection: Selection,
  order: readonly string[],
  byId: Record<string, JobSummary>,
  view: ViewKind,
): SelectionTraits {
  let anyNotFavorite = false;
  let anyImported = false;
  for (const id of selectedIds(selection, order)) {
    const job = byId[id];
    if (job === undefined) continue;
    const part = selection.images[id];
    const shown = visibleImages(job, view).filter((image) => part === undefined || part.includes(image.id));
    if (shown.length === 0) continue;
    if (job.source !== 'atelier') anyImported = true;
    if (shown.some((image) => image.favorite !== true)) anyNotFavorite = true;
  }
  return { anyNotFavorite, anyImported };
}
