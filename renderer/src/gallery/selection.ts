import type { JobSummary } from '../../../shared/contract';
import { visibleImages, type ViewKind } from '../curation/curation';

/**
 * What the person picked: images, counted as images. A card selected whole stands for every image it shows; a card
 * picked by one of its pictures (a Ctrl/Cmd-click on it) stands for the pictures picked and no other.
 */
export interface Selection {
  selected: Record<string, true>;
  /** Selected cards picked by some of their images only: those images. A selected card absent here is whole. */
  images: Record<string, readonly string[]>;
  /** Where a shift-click range starts. */
  anchor: string | null;
}

export const EMPTY_SELECTION: Selection = { selected: {}, images: {}, anchor: null };

export interface ClickModifiers {
  /** Shift: extend a range from the anchor. */
  range: boolean;
  /** Ctrl on Windows/Linux, Cmd on macOS: toggle one item. */
  toggle: boolean;
}

/** The images a card shows, by id: what picking one of them is picked from. */
export type ShownImages = (jobId: string) => readonly string[];

function withoutPart(images: Selection['images'], ids: readonly string[]): Selection['images'] {
  if (!ids.some((id) => images[id] !== undefined)) return images;
  const next = { ...images };
  for (const id of ids) delete next[id];
  return next;
}

/**
 * The selection after a click on `id` within the grid's current `order`. With `imageId` (a click on one picture of a
 * card that shows several) the click picks that picture: alone, or toggled in or out of the selection with Ctrl/Cmd.
 */
export function clickSelect(
  selection: Selection,
  order: readonly string[],
  id: string,
  mods: ClickModifiers,
  pick?: { imageId: string; shown: ShownImages },
): Selection {
  if (mods.range && selection.anchor !== null) {
    const from = order.indexOf(selection.anchor);
    const to = order.indexOf(id);
    if (from !== -1 && to !== -1) {
      const [lo, hi] = from <= to ? [from, to] : [to, from];
      const selected: Record<string, true> = mods.toggle ? { ...selection.selected } : {};
      const range = order.slice(lo, hi + 1);
      for (const each of range) selected[each] = true;
      // A range takes each card in it whole.
      const images = mods.toggle ? withoutPart(selection.images, range) : {};
      return { selected, images, anchor: selection.anchor };
    }
  }
  const shown = pick === undefined ? null : pick.shown(id);
  const imageId = pick !== undefined && shown !== null && shown.length > 1 ? pick.imageId : null;
  if (mods.toggle) {
    const selected = { ...selection.selected };
    if (imageId === null) {
      if (selected[id]) delete selected[id];
      else selected[id] = true;
      return { selected, images: withoutPart(selection.images, [id]), anchor: id };
    }
    const had: readonly string[] = selected[id] ? (selection.images[id] ?? shown!) : [];
    const part = had.includes(imageId) ? had.filter((i) => i !== imageId) : [...had, imageId];
    const images = { ...selection.images };
    if (part.length === 0) {
      delete selected[id];
      delete images[id];
    } else {
      selected[id] = true;
      // Every picture of the card picked is the card whole.
      if (shown!.every((i) => part.includes(i))) delete images[id];
      else images[id] = part;
    }
    return { selected, images, anchor: id };
  }
  return { selected: { [id]: true }, images: imageId === null ? {} : { [id]: [imageId] }, anchor: id };
}

export function selectAll(order: readonly string[]): Selection {
  const selected: Record<string, true> = {};
  for (const id of order) selected[id] = true;
  return { selected, images: {}, anchor: order[0] ?? null };
}

export function selectedIds(selection: Selection, order: readonly string[]): string[] {
  return order.filter((id) => selection.selected[id]);
}

/** The images the selection stands for, in grid order, with the cards they are on: what is counted, acted on and exported. */
export function selectedImages(
  selection: Selection,
  order: readonly string[],
  byId: Record<string, JobSummary>,
  view: ViewKind,
): { imageIds: string[]; jobIds: string[] } {
  const imageIds: string[] = [];
  const jobIds: string[] = [];
  for (const id of selectedIds(selection, order)) {
    const job = byId[id];
    if (job === undefined) continue;
    const part = selection.images[id];
    const shown = visibleImages(job, view).filter((image) => part === undefined || part.includes(image.id));
    if (shown.length === 0) continue;
    jobIds.push(id);
    for (const image of shown) imageIds.push(image.id);
  }
  return { imageIds, jobIds };
}

/** What a drag from card `id` carries: the images the selection counts when the card is selected, else the card's own. */
export function draggedImages(
  selection: Selection,
  order: readonly string[],
  byId: Record<string, JobSummary>,
  view: ViewKind,
  id: string,
): string[] {
  if (selection.selected[id]) return selectedImages(selection, order, byId, view).imageIds;
  const job = byId[id];
  return job === undefined ? [] : visibleImages(job, view).map((i) => i.id);
}

/** Drops ids no longer shown, so a batch action never touches what the person cannot see. */
export function pruneSelection(selection: Selection, order: readonly string[]): Selection {
  const shown = new Set(order);
  const kept = Object.keys(selection.selected).filter((id) => shown.has(id));
  if (kept.length === Object.keys(selection.selected).length) return selection;
  const selected: Record<string, true> = {};
  for (const id of kept) selected[id] = true;
  const images: Record<string, readonly string[]> = {};
  for (const id of kept) if (selection.images[id] !== undefined) images[id] = selection.images[id];
  return {
    selected,
    images,
    anchor: selection.anchor !== null && shown.has(selection.anchor) ? selection.anchor : null,
  };
}
