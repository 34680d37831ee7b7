import type { ImageSummary, ListPage, ListQuery } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { parseQuery } from '../../shared/query/index.js';
import { toSummary } from './codec.js';
import { summaryRowFrom, type StoreContext, type SummaryRow } from './context.js';
import { decodeCursor, encodeCursor, type CursorPosition } from './cursor.js';
import type { Images } from './images.js';
import { compileQuery, type CompiledQuery } from './query/compile.js';
import { chooseDriver, sortMaxFor } from './query/drivers.js';
import { createQueryLookup } from './query/lookup.js';
import { planList, type PlanMode, type PlanOptions } from './query/list-plan.js';
import { sortCursor, sortPlan } from './query/sorts.js';
import { createSearchTokens, type Extent } from './search-tokens.js';

/**
 * How many history rows (below the cursor) a search first walks newest-first with instr(). A term common enough to
 * fill the page within them never needs the index's matches sorted; a rare or absent conjunction is settled by the
 * index before any walk, so the walk stays a small fraction of a large history.
 */
export const DEFAULT_SEARCH_WALK_BUDGET = 2_000;
/** Past this many index matches a search is "dense": walking on finds the page sooner than sorting every match. */
export const DEFAULT_DENSE_SEARCH_THRESHOLD = 2_000;
/** Sorting one index match (a row read by rowid, out of order) costs about this many rows of a newest-first walk. */
const MATCH_COST_IN_WALKED_ROWS = 3;
/** A search with at most this many pages of index matches skips the walk: sorting them all is cheap. */
const FEW_MATCHES_PAGES = 2;
/**
 * Walk budgets' worth of index entries a newest-first read may pass over to reach a cursor: FTS5 steps through them
 * (~0.1 µs each, a tenth of a walked row), so past this a deep page walks the history index from the cursor instead.
 */
const NEWEST_SKIP_BUDGETS = 5;

export interface SearchTuning {
  /** Rows walked newest-first before the index's matches are sorted; 0 sorts them at once. */
  walkBudget: number;
  /** Index matches above which a search is too common for sorting them to beat walking on. */
  denseThreshold: number;
  /** Rows of a typed clause few enough to read through its own index and sort (default: sortMaxFor the history). */
  sortMax?: number;
  /** jobs.count counts each figure up to this many (default COUNT_CAP). */
  countCap?: number;
}

export function createSearch(ctx: StoreContext, images: Images, tuning: SearchTuning) {
  const { matchesUpTo, chooseTokens, estimated } = createSearchTokens(ctx);
  const extent = ctx.sql.prepare<Extent>(
    'jobs.search.extent',
    // Separate subqueries: MIN and MAX in one SELECT scan the table; alone, each reads one end of the b-tree.
    `SELECT (SELECT MIN(rowid) FROM jobs) AS lo, (SELECT MAX(rowid) FROM jobs) AS hi,
       (SELECT jobs FROM store_totals WHERE id = 1) AS total, (SELECT order_breaks FROM store_totals WHERE id = 1) AS breaks`,
  );
  const jobsTotal = ctx.sql.prepare<{ n: number }>(
    'jobs.search.total',
    'SELECT jobs AS n FROM store_totals WHERE id = 1',
  );
  // Where a cursor falls in rowid order: the first row at or above it (rows below it have smaller rowids, in order).
  const cursorRowid = ctx.sql.prepare<{ rowid: number }>(
    'jobs.search.cursorRowid',
    'SELECT rowid FROM jobs WHERE (created_at, id) >= (?, ?) ORDER BY created_at, id LIMIT 1',
  );
  // The far end of the walk budget: index-only (jobs_created covers created_at and id), whatever the filters.
  const floorFirst = ctx.sql.prepare<{ created_at: number; id: string }>(
    'jobs.search.floor',
    'SELECT created_at, id FROM jobs ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?',
  );
  const floorAfter = ctx.sql.prepare<{ created_at: number; id: string }>(
    'jobs.search.floorAfter',
    'SELECT created_at, id FROM jobs WHERE (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?',
  );

  // The query being listed, parsed and compiled once per call (every plan of one search shares it).
  let current: CompiledQuery | undefined;

  function rows(query: ListQuery, mode: PlanMode, limit: number, options: PlanOptions = {}): SummaryRow[] {
    const plan = planList(query, mode, limit, { compiled: current, ...options });
    return ctx.sql
      .cached<unknown[]>(plan.name, plan.key, () => plan.sql, { raw: true })
      .all(...plan.params)
      .map(summaryRowFrom);
  }

  /** The row `budget` rows below the cursor, or undefined when fewer remain (a walk to there sees everything). */
  function floorOf(query: ListQuery): CursorPosition | undefined {
    const offset = tuning.walkBudget - 1;
    const row =
      query.cursor === undefined
        ? floorFirst.get(offset)
        : (({ createdAt, id }) => floorAfter.get(createdAt, id, offset))(decodeCursor(query.cursor));
    return row === undefined ? undefined : { createdAt: row.created_at, id: row.id };
  }

  /**
   * The newest `want` matches straight from the index in rowid order (valid only while that is history order), or
   * undefined when the cursor is so deep that reaching it would pass over too many index entries.
   */
  function newestMatches(
    query: ListQuery,
    tokens: string[],
    want: number,
    { lo, hi }: Extent,
  ): SummaryRow[] | undefined {
    if (query.cursor === undefined) return rows(query, 'newest', want, { tokens });
    const { createdAt, id } = decodeCursor(query.cursor);
    const at = cursorRowid.get(createdAt, id);
    if (at === undefined) return rows(query, 'newest', want, { tokens });
    const above = lo === null || hi === null ? 0 : Math.max(0, hi - at.rowid + 1) / (hi - lo + 1);
    const skipped = tokens.reduce((sum, t) => sum + estimated(t) * above, 0);
    if (skipped > NEWEST_SKIP_BUDGETS * tuning.walkBudget) return undefined;
    return rows(query, 'newest', want, { tokens, belowRowid: at.rowid });
  }

  /**
   * Up to `want` rows of the page. While rowid order is history order, the index's matches are read newest first
   * and the scan stops at the page, whatever the terms. Otherwise the index settles absent and rare conjunctions
   * (its matches are a superset, so none means no job matches) and sends a search with a page or two of matches
   * straight to sorting them; common searches fill the page from a bounded walk of the newest rows, and past the
   * budget the matches are sorted when that costs less than walking on at the density the walk saw.
   */
  function search(query: ListQuery, terms: string[], want: number): SummaryRow[] {
    const shape = extent.get()!;
    // A typed value's words are in its jobs' settings line: their grams narrow the index read too.
    const tokens = chooseTokens([...terms, ...(current?.settingTerms ?? [])], shape);
    // A filter most jobs fail reads many matches per page in rowid order; its own history index walks only its jobs.
    const typed = current !== undefined && (current.where.length > 0 || current.imageWhere.length > 0);
    const selective =
      typed ||
      query.view === 'trash' ||
      query.favorite === true ||
      query.status !== undefined ||
      query.provider !== undefined ||
      query.source !== undefined;
    const newest = shape.breaks === 0 && !selective ? newestMatches(query, tokens, want, shape) : undefined;
    if (newest !== undefined) return newest;
    if (typed) {
      // A typed clause holding few jobs: those, sorted, each checked for the words (no index read at all).
      const choice = chooseDriver(current!, counter, undefined, tuning.sortMax ?? sortMaxFor(shape.total, want));
      if (choice.sorts === true) {
        lastDriver = choice.label;
        return rows(query, 'walk', want, {
          ...(choice.indexedBy !== undefined && { indexedBy: choice.indexedBy }),
          ...(choice.driverWhere !== undefined && { driverWhere: choice.driverWhere }),
          sorts: true,
        });
      }
    }
    const fts = () => rows(query, 'fts', want, { tokens });
    const fewCap = Math.min(tuning.denseThreshold, FEW_MATCHES_PAGES * want);
    const few = matchesUpTo(tokens, fewCap);
    if (few === 0) return [];
    if (few <= fewCap) return fts();
    if (typed && shape.breaks === 0) {
      // Every clause holds many jobs: the index's matches (words and typed values ANDed) newest first, each checked,
      // stop at the page; never more rows than walking the history would read.
      const found = newestMatches(query, tokens, want, shape);
      if (found !== undefined) return found;
    }

    let found: SummaryRow[] = [];
    let floor: CursorPosition | undefined;
    if (tuning.walkBudget > 0) {
      floor = floorOf(query);
      found = rows(query, 'walk', want, floor === undefined ? {} : { floor });
      if (found.length >= want || floor === undefined) return found;
    }
    // The walk measured the density, so how many more rows it needs; sorting the matches wins if there are fewer
    // than that many (by what each costs), and never past the dense threshold.
    const rowsToFill = found.length === 0 ? Infinity : ((want - found.length) * tuning.walkBudget) / found.length;
    const cap = Math.min(tuning.denseThreshold, Math.floor(rowsToFill / MATCH_COST_IN_WALKED_ROWS));
    if (matchesUpTo(tokens, cap) <= cap) return fts();
    if (floor === undefined) return rows(query, 'walk', want);
    return [...found, ...rows(query, 'walk', want - found.length, { before: floor })];
  }

  const lookup = createQueryLookup(ctx);
  const parseSaved = (text: string) => {
    const parsed = parseQuery(text);
    return parsed.ok ? parsed.query : null;
  };

  /** The search box's text as SQL; a query that cannot be read says where and why (never a guess). */
  function compile(search: string | undefined): CompiledQuery | undefined {
    if (search === undefined || search.trim().length === 0) return undefined;
    const parsed = parseQuery(search);
    if (!parsed.ok) {
      const { at, message } = parsed.error;
      throw new AppError('invalid_request', `Can't read this search: ${message}`, {
        details: { at, message, fields: { search: message } },
      });
    }
    return compileQuery(parsed.query, lookup, parseSaved);
  }

  const counter = (sql: string, params: unknown[], cap: number): number =>
    ctx.sql
      .cached<{ n: number }>(
        'jobs.list.driverCount',
        `count|${sql}`,
        () => `SELECT COUNT(*) AS n FROM (${sql} LIMIT ?)`,
      )
      .get(...params, cap)!.n;

  /** A page with no free text: every clause typed, read from the index that suits it best. */
  function browse(query: ListQuery, want: number): SummaryRow[] {
    if (
      current === undefined ||
      (current.drivers.length === 0 &&
        current.imageDrivers.length === 0 &&
        current.where.length + current.imageWhere.length === 0)
    ) {
      return rows(query, 'none', want);
    }
    // The view's own partial index walks only its jobs; the trash's OR is left to SQLite.
    const walkIndex =
      query.favorite === true
        ? 'jobs_favorite_created'
        : query.view === 'trash' && !current.wantsTrash
          ? undefined
          : 'jobs_created';
    const choice = chooseDriver(current, counter, walkIndex, tuning.sortMax ?? sortMaxFor(jobsTotal.get()!.n, want));
    lastDriver = choice.label;
    return rows(query, 'none', want, {
      ...(choice.indexedBy !== undefined && { indexedBy: choice.indexedBy }),
      ...(choice.driverWhere !== undefined && { driverWhere: choice.driverWhere }),
      ...(choice.sorts === true && { sorts: true }),
    });
  }
  let lastDriver = '';

  /**
   * Best rated first without sorting the history: the rated jobs down their own index (best_rating, created_at, id),
   * then the unrated ones newest first down the history index. The cursor's rating says which part it is in.
   */
  function byRating(query: ListQuery, cursor: CursorPosition | undefined, want: number): SummaryRow[] {
    const rated =
      cursor === undefined || (cursor.k ?? 0) > 0
        ? rows(query, 'sorted', want, {
            sort: sortPlan('rating', cursor, 0),
            indexedBy: 'jobs_rating_created',
            driverWhere: { sql: 'j.best_rating > 0', params: [] },
          })
        : [];
    if (rated.length >= want) return rated;
    const unratedAfter =
      cursor !== undefined && (cursor.k ?? 0) === 0 ? { createdAt: cursor.createdAt, id: cursor.id, k: 0 } : undefined;
    const unrated = rows(query, 'sorted', want - rated.length, {
      sort: { ...sortPlan('rating', unratedAfter, 0), name: 'rating.unrated', orderBy: 'j.created_at DESC, j.id DESC' },
      indexedBy: 'jobs_created',
      driverWhere: { sql: 'j.best_rating = 0', params: [] },
    });
    return [...rated, ...unrated];
  }

  /** Only the images a page should show: outside the trash (or in it, in the trash view), passing the image clauses. */
  function visibleImages(query: ListQuery, page: SummaryRow[]): Map<string, ImageSummary[]> {
    const byJob = images.summariesFor(page.map((r) => r.id));
    const view = current?.wantsTrash === true ? 'all' : query.view;
    let keep: Set<string> | null = null;
    if (current !== undefined && current.imageWhere.length > 0) {
      const sql = `SELECT i.id FROM json_each(?) AS ids JOIN jobs AS j ON j.id = ids.value JOIN images AS i ON i.job_id = j.id
        WHERE ${current.imageWhere.join(' AND ')}`;
      const ids = ctx.sql
        .cached<{ id: string }>('jobs.list.visibleImages', `vis|${sql}`, () => sql)
        .all(JSON.stringify(page.map((r) => r.id)), ...current.imageParams);
      keep = new Set(ids.map((r) => r.id));
    }
    for (const row of page) {
      const all = byJob.get(row.id);
      if (all === undefined) continue;
      const shown = all.filter(
        (image) =>
          (keep === null || keep.has(image.id)) &&
          (view !== 'active' || image.trashed !== true) &&
          (view !== 'active' || current?.wantsRejected === true || image.rejected !== true) &&
          (view !== 'trash' || row.trashed_at !== null || image.trashed === true) &&
          (query.favorite !== true || image.favorite === true),
      );
      byJob.set(row.id, shown.length === 0 && keep === null && query.favorite === true ? all : shown);
    }
    return byJob;
  }

  return {
    compile,
    /** Which index the last typed page started from (tests and the bench read it). */
    lastDriver: () => lastDriver,
    list(query: ListQuery): ListPage {
      const limit = query.limit;
      current = compile(query.search);
      lastDriver = '';
      const sort = query.sort ?? 'newest';
      const shuffle = query.shuffle ?? 0;
      const terms = current?.indexTerms ?? [];
      let found: SummaryRow[];
      // A clause naming nothing the library holds (FALSE) settles the page: no plan, and no INDEXED BY on a partial
      // index the constant false would leave SQLite unable to use ("no query solution").
      if (current?.where.includes('(0)') === true) {
        found = [];
      } else if (sort !== 'newest') {
        const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
        found = ctx.sql.time('jobs.list.sorted', () =>
          sort === 'rating' &&
          terms.length === 0 &&
          (current === undefined || current.drivers.length + current.imageDrivers.length === 0)
            ? byRating(query, cursor, limit + 1)
            : rows(query, 'sorted', limit + 1, { sort: sortPlan(sort, cursor, shuffle) }),
        );
      } else {
        found =
          terms.length === 0
            ? browse(query, limit + 1)
            : ctx.sql.time('jobs.list.search', () => search(query, terms, limit + 1));
      }
      const more = found.length > limit;
      const page = more ? found.slice(0, limit) : found;
      const imagesByJob = visibleImages(query, page);
      const last = page[page.length - 1];
      return {
        items: page.map((row) => toSummary(row, imagesByJob.get(row.id) ?? [])),
        nextCursor: more && last !== undefined ? encodeCursor(sortCursor(sort, last, shuffle)) : null,
      };
    },
  };
}
