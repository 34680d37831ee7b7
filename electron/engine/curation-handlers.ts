/** The curation and search-help channels (issue 10): per-image ratings, favourites, trash, tags, boards, counts. */
import { AppError } from '../../shared/errors.js';
import type { Handlers } from '../../shared/contract.js';

export type CurationChannels =
  | 'jobs.count' | 'images.setRating' | 'images.setFavorite' | 'images.trash' | 'images.restore' | 'images.tag' | 'images.undo'
  | 'tags.list' | 'tags.rename' | 'boards.list' | 'boards.create' | 'boards.rename' | 'boards.delete' | 'boards.add' | 'boards.remove'
  | 'search.suggest';

const CHANNELS: CurationChannels[] = [
  'jobs.count', 'images.setRating', 'images.setFavorite', 'images.trash', 'images.restore', 'images.tag', 'images.undo',
  'tags.list', 'tags.rename', 'boards.list', 'boards.create', 'boards.rename', 'boards.delete', 'boards.add', 'boards.remove',
  'search.suggest',
];

export function createCurationHandlers(): Pick<Handlers, CurationChannels> {
  // Work in progress: the store side lands next.
  return Object.fromEntries(
    CHANNELS.map((n) => [n, async () => { throw new AppError('internal', `${n} is not wired yet.`); }]),
  ) as unknown as Pick<Handlers, CurationChannels>;
}
