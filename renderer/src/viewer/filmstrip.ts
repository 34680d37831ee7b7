/** The viewer's filmstrip: the images around the one on screen, across the grid's cards, in the grid's order. */
import type { ImageSummary, JobSummary } from '../../../shared/contract';
import { visibleImages, type ViewKind } from '../curation/curation';

export interface StripCell {
  jobId: string;
  /** The image's place among its card's images (what openViewer takes). */
  index: number;
  image: ImageSummary;
  current: boolean;
}

/**
 * Up to `reach` images either side of the current one: its own job's images, then its neighbours' in grid order.
 * `keep` holds images rejected while on screen (they stay in the viewer's list, see visibleImages).
 */
export function stripAround(
  order: readonly string[],
  byId: Record<string, JobSummary>,
  view: ViewKind,
  /** place: where the job sat in the grid when the viewer opened it (it may have left since: rejected whole). */
  at: { jobId: string; index: number; place?: number },
  reach: number,
  keep?: ReadonlySet<string>,
): StripCell[] {
  const cellsOf = (jobId: string): StripCell[] => {
    const job = byId[jobId];
    if (job === undefined) return [];
    return visibleImages(job, view, keep).map((image, index) => ({
      jobId,
      index,
      image,
      current: jobId === at.jobId && index === at.index,
    }));
  };
  const own = cellsOf(at.jobId);
  const here = Math.min(Math.max(0, at.index), Math.max(0, own.length - 1));
  const before = own.slice(0, here);
  const after = own.slice(here + 1);
  let grid = order;
  let position = grid.indexOf(at.jobId);
  if (position === -1 && at.place !== undefined && at.place >= 0) {
    grid = [...order.slice(0, at.place), at.jobId, ...order.slice(at.place)];
    position = grid.indexOf(at.jobId);
  }
  if (position !== -1) {
    for (let i = position - 1; i >= 0 && before.length < reach; i -= 1) before.unshift(...cellsOf(grid[i]!));
    for (let i = position + 1; i < grid.length && after.length < reach; i += 1) after.push(...cellsOf(grid[i]!));
  }
  return [...before.slice(-reach), ...own.slice(here, here + 1), ...after.slice(0, reach)];
}

/** The marks a cell shows, in words too (the button's label). */
export function marksOf(image: ImageSummary): { stars: number; favorite: boolean; rejected: boolean; words: string } {
  const stars = image.rating ?? 0;
  const favorite = image.favorite === true;
  const rejected = image.rejected === true;
  const words = [
    stars > 0 ? `${stars} ${stars === 1 ? 'star' : 'stars'}` : '',
    favorite ? 'favourite' : '',
    rejected ? 'rejected' : '',
  ].filter((w) => w !== '');
  return { stars, favorite, rejected, words: words.join(', ') };
}
