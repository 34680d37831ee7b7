import {
  COUNT_CAP,
  type Board,
  type CountQuery,
  type MatchCounts,
  type MatchQuery,
  type SuggestResult,
  type TagCount,
} from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { formatTerm } from '../../shared/query/index.js';
import { createBoards } from './boards.js';
import type { CountStatement } from './count-worker.js';
import type { StoreContext } from './context.js';
import { createCuration, type Curated, type ImageTarget } from './curation.js';
import type { CompiledQuery } from './query/compile.js';
import { matchWhere } from './query/match.js';
import { createSuggest, type SuggestPlan } from './suggest.js';
import { createTags } from './tags.js';
import type { Access } from './guard.js';

/**
 * How to count a query: the answer at once (no query: from the totals), or the statements to run (on the counting
 * thread, count-pool.ts) at this library version, and how their numbers become the answer.
 */
export type CountPlan =
  { counts: MatchCounts } | { statements: CountStatement[]; version: number; finish(numbers: number[]): MatchCounts };

/** Counts, tags, boards and suggestions as they stand. */
export interface CurationReads {
  count(query: CountQuery): MatchCounts;
  /** count() as a plan: the engine runs its statements off the main thread. */
  countPlan(query: CountQuery): CountPlan;
  /** Images carrying a tag (after a rename, their sidecars follow). */
  imagesTagged(name: string): string[];
  tags(): TagCount[];
  boards(): Board[];
  suggest(text: string, cursor: number): SuggestResult;
  /** suggest() as a plan: narrowed by the rest of the query, its counts run off the main thread. */
  suggestPlan(text: string, cursor: number): SuggestPlan;
  /** Image ids a target covers now (an export reads them). */
  resolve(target: ImageTarget): string[];
}

/** Per-image curation, tags and boards changed (each guarded as a write). */
export interface CurationWrites {
  setRating(target: ImageTarget, rating: number): Curated;
  setFavorite(target: ImageTarget, favorite: boolean): Curated;
  setRejected(target: ImageTarget, rejected: boolean): Curated;
  trash(target: ImageTarget): Curated;
  restore(target: ImageTarget): Curated;
  tag(target: ImageTarget, add: string[], remove: string[]): Curated;
  undo(undoId: string): { updated: number; jobs: string[]; images: string[] };
  renameTag(from: string, to: string): { updated: number; merged: boolean };
  createBoard(name: string, query?: string): Board;
  renameBoard(id: string, name: string): Board;
  deleteBoard(id: string): number;
  boardAdd(boardId: string, target: ImageTarget): Curated;
  boardRemove(boardId: string, target: ImageTarget): Curated;
}

/** The curation store: per-image curation, tags, boards, counts that follow the query, suggestions. */
export type CurationStore = CurationReads & CurationWrites;

/**
 * The unfiltered counts without reading the history: the totals row, the (small) trash, the favourite jobs and the
 * jobs holding a reject (O(trash + favourites + rejects)). Every figure counts images, as the tabs show them; the
 * totals row knows nothing of rejects (migration 0020), so the rejected images the tabs leave out are taken off.
 */
const UNFILTERED = [
  'SELECT images AS n FROM store_totals WHERE id = 1',
  `SELECT COUNT(*) AS n FROM jobs AS j INDEXED BY jobs_in_trash_created JOIN images AS i ON i.job_id = j.id
    WHERE (j.trashed_at IS NOT NULL OR j.trashed_images > 0) AND (j.trashed_at IS NOT NULL OR i.trashed_at IS NOT NULL)`,
  `SELECT COUNT(*) AS n FROM jobs AS j INDEXED BY jobs_favorite_created JOIN images AS i ON i.job_id = j.id
    WHERE j.favorite = 1 AND j.trashed_at IS NULL AND i.favorite = 1 AND i.trashed_at IS NULL`,
  `SELECT COUNT(*) AS n FROM jobs AS j INDEXED BY jobs_rejected_created JOIN images AS i ON i.job_id = j.id
    WHERE j.rejected_images > 0 AND j.trashed_at IS NULL AND i.rejected = 1 AND i.trashed_at IS NULL`,
  `SELECT COALESCE(SUM(i.favorite), 0) AS n FROM jobs AS j INDEXED BY jobs_rejected_created JOIN images AS i ON i.job_id = j.id
    WHERE j.rejected_images > 0 AND j.trashed_at IS NULL AND i.rejected = 1 AND i.trashed_at IS NULL`,
] as const;

export function createCurationStore(
  ctx: StoreContext,
  compile: (search: string | undefined) => CompiledQuery | undefined,
  countCap = COUNT_CAP,
): Access<CurationReads, CurationWrites> {
  const { sql } = ctx;
  const tags = createTags(ctx);
  const curation = createCuration(ctx, tags, compile);
  const suggest = createSuggest(ctx, compile);

  /** The statement counting matches up to `cap` + 1 (Infinity: every one, for a board's images). */
  function countStatement(query: MatchQuery, level: 'jobs' | 'images', cap = Infinity): CountStatement {
    const compiled = compile(query.search);
    const { where, params } = matchWhere(query, compiled, level);
    // The trash and the favourites are few: their partial indexes bound the count, where a broad clause's own index
    // (steps:20-30) would walk most of the history to find the few in the trash. A clause naming nothing the library
    // holds (a constant false) leaves SQLite no use of a partial index: no hint then.
    // Read on the whole condition: a smart board's own query (board:) may be the constant false, not only the search.
    const settled = where.some((w) => w.includes('(0)'));
    const hint =
      settled || (query.view === 'trash' && compiled?.wantsTrash === true)
        ? ''
        : query.view === 'trash'
          ? ' INDEXED BY jobs_in_trash_created'
          : query.favorite === true
            ? ' INDEXED BY jobs_favorite_created'
            : '';
    const jobs = `jobs AS j${hint}`;
    const from = level === 'jobs' ? jobs : `${jobs} JOIN images AS i ON i.job_id = j.id`;
    const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    if (cap === Infinity) return { sql: `SELECT COUNT(*) AS n FROM ${from} ${filter}`, params };
    return { sql: `SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${from} ${filter} LIMIT ?)`, params: [...params, cap + 1] };
  }

  const run = (s: CountStatement): number =>
    sql.cached<{ n: number }>('jobs.count', `count|${s.sql}`, () => s.sql).get(...s.params)!.n;

  function countOf(query: MatchQuery, level: 'jobs' | 'images', cap = Infinity): number {
    return run(countStatement(query, level, cap));
  }

  // Every write on this (the only writing) connection moves it: a cached count is good while it stands still.
  const version = sql.prepare<{ n: number }>('jobs.count.version', 'SELECT total_changes() AS n');

  // The unfiltered counts from the totals row, the (small) trash and the favourite jobs: O(trash + favourites), not O(history).
  // Every figure counts images, as the tabs show them: a job counts as the images it shows.
  const tagged = sql.prepare<{ image_id: string }>('tags.images', 'SELECT image_id FROM image_tags WHERE tag_id = ?');
  const unfiltered = (q: CountQuery) =>
    (q.search === undefined || q.search.trim() === '') &&
    q.status === undefined &&
    q.favorite === undefined &&
    q.provider === undefined &&
    q.source === undefined;

  const boards = createBoards(
    ctx,
    (query) => {
      try {
        return countOf({ view: 'active', search: query }, 'images');
      } catch (error) {
        // A saved query the language no longer reads, or one too large filled in, counts nothing rather than breaking the board list.
        if (error instanceof AppError && error.code === 'invalid_request') return 0;
        throw error;
      }
    },
    (query, name) => {
      compile(query);
      // As the sidebar shows it: one level more than the query alone, so a board accepted can always be shown.
      compile(formatTerm({ kind: 'text', key: 'board', text: name }));
    },
  );

  const plainBoard = (boardId: string) => {
    if (boards.get(boardId).query !== null) {
      throw new AppError(
        'conflict',
        'A smart board shows whatever matches its query: change the query instead of adding images.',
      );
    }
  };

  function countPlan(query: CountQuery): CountPlan {
    if (unfiltered(query)) {
      return {
        statements: UNFILTERED.map((text) => ({ sql: text, params: [] })),
        version: version.get()!.n,
        finish([images, trashed, favorites, rejected, rejectedFavorites]) {
          const shown = images! - trashed! - rejected!;
          return {
            active: shown,
            images: shown,
            trash: trashed!,
            favorites: favorites! - rejectedFavorites!,
            capped: [],
          };
        },
      };
    }
    // Images, as a selection and an export count them; the matches outside the trash are the tab's "All".
    const statements = [
      countStatement({ ...query, view: 'active' }, 'images', countCap),
      countStatement({ ...query, view: 'active', favorite: true }, 'images', countCap),
      countStatement({ ...query, view: 'trash' }, 'images', countCap),
    ];
    return {
      statements,
      version: version.get()!.n,
      finish([active, favorites, trash]) {
        const counted = { active: active!, favorites: favorites!, trash: trash!, images: active! };
        const capped = (Object.keys(counted) as Array<keyof typeof counted>).filter((k) => counted[k] > countCap);
        for (const k of capped) counted[k] = countCap;
        return { ...counted, capped };
      },
    };
  }

  return {
    reads: {
      count(query) {
        const plan = countPlan(query);
        if ('counts' in plan) return plan.counts;
        return sql.time('jobs.count', () => plan.finish(plan.statements.map(run)));
      },
      countPlan,
      tags: tags.list,
      boards: boards.list,
      suggest: suggest.suggest,
      suggestPlan: suggest.plan,
      resolve: curation.resolve,
      imagesTagged(name) {
        const tag = tags.find(name);
        return tag === null ? [] : tagged.all(tag).map((r) => r.image_id);
      },
    },
    writes: {
      setRating: curation.setRating,
      setFavorite: curation.setFavorite,
      setRejected: curation.setRejected,
      trash: curation.trash,
      restore: curation.restore,
      tag: curation.tag,
      undo: curation.undo,
      renameTag: (from, to) => tags.rename(from, to),
      createBoard: (name, query) => boards.create(name, query),
      renameBoard: boards.rename,
      deleteBoard: boards.delete,
      boardAdd(boardId, target) {
        plainBoard(boardId);
        return curation.boardAdd(boardId, target);
      },
      boardRemove(boardId, target) {
        plainBoard(boardId);
        return curation.boardRemove(boardId, target);
      },
    },
  };
}
