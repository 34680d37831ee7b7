/** Per-image curation in a grid of job cards: which images a card shows, where the focus steps, what a key acts on. */
import type { ImageSummary, JobSummary } from '../../../shared/contract';

export type ViewKind = 'active' | 'trash';

/**
 * The images a card shows. Outside the trash an image the person trashed leaves its card; in the trash a trashed
 * job shows all its images, any other job only its trashed ones.
 */
export function visibleImages(job: JobSummary, view: ViewKind, keep?: ReadonlySet<string>): ImageSummary[] {
  if (view === 'trash') return job.trashedAt !== null ? job.images : job.images.filter((i) => i.trashed === true);
  if (job.trashedAt !== null) return [];
  const outside = job.images.some((i) => i.trashed === true)
    ? job.images.filter((i) => i.trashed !== true)
    : job.images;
  return withoutRejected(outside, keep);
}

/**
 * A rejected image leaves its card (migration 0020), unless every image left is rejected: the engine sends such a job
 * only when the search asks for rejects (is:rejected), and then they are what the card shows. `keep`: images rejected
 * while the viewer is on them, which stay in its list so X again clears the reject.
 */
function withoutRejected(images: ImageSummary[], keep?: ReadonlySet<string>): ImageSummary[] {
  if (!images.some((i) => i.rejected === true)) return images;
  const kept = images.filter((i) => i.rejected !== true || keep?.has(i.id) === true);
  return kept.length === 0 ? images : kept;
}

/** Every image outside the trash is rejected: the job leaves the default view (the engine's jobs.rejected roll-up). */
export function allShownRejected(job: JobSummary): boolean {
  const outside = job.images.filter((i) => i.trashed !== true);
  return outside.length > 0 && outside.every((i) => i.rejected === true);
}

/** The search asks for rejected images (is:rejected, not negated): the default view's reject filter stands aside. */
export function asksForRejected(search: string): boolean {
  return /(^|[\s(|])is:rejected(?=$|[\s)|])/iu.test(search);
}

/** A job whose every image is in the trash leaves the active grid, as a trashed job does. */
export function allImagesTrashed(job: JobSummary): boolean {
  return job.images.length > 0 && job.images.every((i) => i.trashed === true);
}

export interface ImageFocus {
  jobId: string;
  imageId: string | null;
}

/**
 * ArrowLeft/ArrowRight in the grid: through the images of the focused card, then on to the next card's first image
 * (or the previous card's last), so culling a folder visits every image once.
 */
export function stepImage(
  order: readonly string[],
  byId: Record<string, JobSummary>,
  view: ViewKind,
  at: ImageFocus,
  delta: 1 | -1,
): ImageFocus {
  const job = byId[at.jobId];
  let stay = at;
  if (job !== undefined) {
    const images = visibleImages(job, view);
    const here =
      at.imageId === null
        ? 0
        : Math.max(
            0,
            images.findIndex((i) => i.id === at.imageId),
          );
    const next = images[here + delta];
    if (next !== undefined) return { jobId: at.jobId, imageId: next.id };
    stay = { jobId: at.jobId, imageId: images[here]?.id ?? null };
  }
  const index = order.indexOf(at.jobId);
  const neighbourId = order[index + delta];
  // At either end the focus stays on the image it is on.
  if (index === -1 || neighbourId === undefined) return stay;
  const neighbour = byId[neighbourId];
  const images = neighbour === undefined ? [] : visibleImages(neighbour, view);
  const image = delta === 1 ? images[0] : images[images.length - 1];
  return { jobId: neighbourId, imageId: image?.id ?? null };
}

/** The image a card shows: the focused one when the focus is inside it, else its first. */
export function shownImage(job: JobSummary, view: ViewKind, focusedImageId: string | null): ImageSummary | undefined {
  const images = visibleImages(job, view);
  return images.find((i) => i.id === focusedImageId) ?? images[0];
}

export interface ImageTargets {
  imageIds: string[];
  /** The jobs those images belong to (for the card updates and the "whole job" cases). */
  jobIds: string[];
}

/**
 * What a curation key acts on: with several cards selected (the focused one among them), every shown image of
 * those jobs; otherwise the one image in focus.
 */
export function keyTargets(
  byId: Record<string, JobSummary>,
  view: ViewKind,
  selected: readonly string[],
  focus: ImageFocus,
): ImageTargets {
  if (selected.length > 1 && selected.includes(focus.jobId)) {
    const imageIds: string[] = [];
    const jobIds: string[] = [];
    for (const id of selected) {
      const job = byId[id];
      if (job === undefined) continue;
      const images = visibleImages(job, view);
      if (images.length === 0) continue;
      jobIds.push(id);
      for (const image of images) imageIds.push(image.id);
    }
    return { imageIds, jobIds };
  }
  const job = byId[focus.jobId];
  if (job === undefined) return { imageIds: [], jobIds: [] };
  const image = shownImage(job, view, focus.imageId);
  return image === undefined ? { imageIds: [], jobIds: [] } : { imageIds: [image.id], jobIds: [focus.jobId] };
}

/** The rating most of the targets share, to tell "set" from "clear" (pressing the rating an image has clears it). */
export function ratingOf(image: ImageSummary | undefined): number {
  return image?.rating ?? 0;
}

/** A copy of the job with some of its images changed: the card shows a key's effect before the engine's event. */
export function patchImages(
  job: JobSummary,
  imageIds: ReadonlySet<string>,
  patch: (image: ImageSummary) => ImageSummary,
): JobSummary {
  let changed = false;
  const images = job.images.map((image) => {
    if (!imageIds.has(image.id)) return image;
    changed = true;
    return patch(image);
  });
  return changed ? { ...job, images } : job;
}

/** The curated fields of an image set to what an action asks. */
export function withRating(image: ImageSummary, rating: number): ImageSummary {
  const { rating: _old, ...rest } = image;
  return rating === 0 ? rest : { ...rest, rating };
}

export function withFavorite(image: ImageSummary, favorite: boolean): ImageSummary {
  const { favorite: _old, ...rest } = image;
  return favorite ? { ...rest, favorite: true } : rest;
}

export function withRejected(image: ImageSummary, rejected: boolean): ImageSummary {
  const { rejected: _old, ...rest } = image;
  return rejected ? { ...rest, rejected: true } : rest;
}

export function withTrashed(image: ImageSummary, trashed: boolean): ImageSummary {
  const { trashed: _old, ...rest } = image;
  return trashed ? { ...rest, trashed: true } : rest;
}

export function withTags(image: ImageSummary, add: readonly string[], remove: readonly string[]): ImageSummary {
  const fold = (s: string) => s.toLocaleLowerCase();
  const gone = new Set(remove.map(fold));
  const tags = (image.tags ?? []).filter((t) => !gone.has(fold(t)));
  for (const tag of add) if (!tags.some((t) => fold(t) === fold(tag))) tags.push(tag);
  const { tags: _old, ...rest } = image;
  return tags.length === 0 ? rest : { ...rest, tags: tags.sort((a, b) => a.localeCompare(b)) };
}
