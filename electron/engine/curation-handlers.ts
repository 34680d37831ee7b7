/** The curation and search-help channels: per-image ratings, favourites, trash, tags, boards, counts. */
import type { Handlers, MatchQuery } from '../../shared/contract.js';
import type { CountPool } from '../db/count-pool.js';
import type { Curated, ImageTarget } from '../db/curation.js';
import type { JobStore } from '../db/types.js';
import type { EventBus } from '../base/events.js';
import type { SidecarWriter } from '../library/xmp/sidecar-writer.js';

export type CurationChannels =
  | 'jobs.count'
  | 'images.setRating'
  | 'images.setFavorite'
  | 'images.setRejected'
  | 'images.trash'
  | 'images.restore'
  | 'images.tag'
  | 'images.undo'
  | 'tags.list'
  | 'tags.rename'
  | 'boards.list'
  | 'boards.create'
  | 'boards.rename'
  | 'boards.delete'
  | 'boards.add'
  | 'boards.remove'
  | 'search.suggest';

/** Past this many jobs an action announces only `library.curated`: the grid refetches one page instead of 10,000 events. */
const ANNOUNCE_EACH_UP_TO = 200;

export interface CurationDeps {
  store: JobStore;
  /** Ratings and tags to XMP sidecars beside linked originals, when the person turned it on. */
  sidecars: Pick<SidecarWriter, 'queue'>;
  bus: EventBus;
  now(): number;
  announce(ids: string[]): void;
  /** Counts a query off the main thread (its own connection); without it, counts run on this thread. */
  counts?: Pick<CountPool, 'count'>;
}

const targetOf = (input: { ids?: string[] | undefined; query?: MatchQuery | undefined }): ImageTarget =>
  input.ids !== undefined ? { ids: input.ids } : { query: input.query! };

export function createCurationHandlers({
  store,
  bus,
  now,
  announce,
  sidecars,
  counts,
}: CurationDeps): Pick<Handlers, CurationChannels> {
  const c = store.curation;
  const changed = (jobs: string[]): void => {
    if (jobs.length <= ANNOUNCE_EACH_UP_TO) announce(jobs);
    bus.emit('library.curated', { at: now() });
  };
  const done = (result: Curated, sidecar = false) => {
    if (result.updated > 0) changed(result.jobs);
    if (sidecar) sidecars.queue(result.images);
    return { updated: result.updated, undoId: result.undoId };
  };

  return {
    'jobs.count': async (query) => {
      if (counts === undefined) return c.count(query);
      // The query is compiled here (a few lookups); the counting, up to seconds at a million images, is not.
      const plan = c.countPlan(query);
      if ('counts' in plan) return plan.counts;
      return plan.finish(await counts.count(plan.statements, plan.version));
    },
    'images.setRating': async (input) => done(c.setRating(targetOf(input), input.rating), true),
    'images.setFavorite': async (input) => done(c.setFavorite(targetOf(input), input.favorite)),
    'images.setRejected': async (input) => done(c.setRejected(targetOf(input), input.rejected)),
    'images.trash': async (input) => done(c.trash(targetOf(input))),
    'images.restore': async (input) => done(c.restore(targetOf(input))),
    'images.tag': async (input) => done(c.tag(targetOf(input), input.add ?? [], input.remove ?? []), true),
    'images.undo': async ({ undoId }) => {
      const { updated, jobs, images } = c.undo(undoId);
      changed(jobs);
      sidecars.queue(images);
      return { updated };
    },
    'tags.list': async () => ({ items: c.tags() }),
    'tags.rename': async ({ from, to }) => {
      const result = c.renameTag(from, to);
      bus.emit('library.curated', { at: now() });
      sidecars.queue(c.imagesTagged(to));
      return result;
    },
    'boards.list': async () => ({ items: c.boards() }),
    'boards.create': async ({ name, query }) => {
      const board = c.createBoard(name, query);
      bus.emit('library.curated', { at: now() });
      return { board };
    },
    'boards.rename': async ({ id, name }) => {
      const board = c.renameBoard(id, name);
      bus.emit('library.curated', { at: now() });
      return { board };
    },
    'boards.delete': async ({ id }) => {
      const updated = c.deleteBoard(id);
      bus.emit('library.curated', { at: now() });
      return { updated };
    },
    'boards.add': async (input) => done(c.boardAdd(input.boardId, targetOf(input))),
    'boards.remove': async (input) => done(c.boardRemove(input.boardId, targetOf(input))),
    'search.suggest': async ({ text, cursor }) => {
      if (counts === undefined) return c.suggest(text, cursor);
      // Narrowed by the rest of the query: each value counted among its matches, on the counting thread.
      const plan = c.suggestPlan(text, cursor);
      if ('result' in plan) return plan.result;
      return plan.finish(await counts.count(plan.statements, plan.version));
    },
  };
}
