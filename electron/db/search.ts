import type { ListPage, ListQuery } from '../../shared/contract.js';
import { toSummary } from './codec.js';
import { SUMMARY_COLUMNS, summaryRowFrom, type StoreContext, type SummaryRow } from './context.js';
import { decodeCursor, encodeCursor, type CursorPosition } from './cursor.js';
import { searchTerms } from './fold.js';
import type { Images } from './images.js';

/**
 * How many history rows (below the cursor) a search first walks newest-first with instr(). A term common enough to
 * fill the page within them never touches the full-text index; every rare or absent term pays this walk in full,
 * so it stays a small fraction of a large history.
 */
export const DEFAULT_SEARCH_WALK_BUDGET = 2_000;
/** Past this many full-text matches a term is "dense": walking on finds the page sooner than sorting every match. */
export const DEFAULT_DENSE_SEARCH_THRESHOLD = 2_000;
/** After a walk budget finds some matches, walking on up to this many budgets more beats probing the index. */
const WALK_ON_BUDGETS = 8;
/** A term with at most this many pages of full-text matches skips the walk: sorting them all is cheap. */
const FEW_MATCHES_PAGES = 2;
/** The trigram index needs 3 characters; shorter terms are checked with instr() on the folded column. */
const TRIGRAM = 3;

/** A phrase in FTS5 syntax: inside double quotes every character is literal except the quote, which is doubled. */
export function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

const isLong = (term: string) => [...term].length >= TRIGRAM;

export interface ListPlan {
  sql: string;
  params: unknown[];
  key: string;
  name: string;
}

export interface PlanOptions {
  /** fts: the terms matched through the index (default every 3+ character term); the rest are checked with instr(). */
  ftsTerms?: string[];
  /** walk: stop at this row (inclusive), the far end of the walk budget. */
  floor?: CursorPosition;
  /** Replaces the query's cursor: a walk that continues past an earlier one's floor. */
  before?: CursorPosition;
}

/**
 * Builds the page query. Filters and search are in WHERE, so they apply before the cursor and the limit.
 * `mode` picks how search runs: `fts` starts from the trigram index (rare terms), `walk` walks the history
 * index newest-first and checks instr() on the folded text (common terms, and 1–2 character terms).
 */
export function planList(query: ListQuery, mode: 'fts' | 'walk' | 'none', limit: number, options: PlanOptions = {}): ListPlan {
  const where: string[] = [];
  const params: unknown[] = [];
  const key: string[] = [mode];
  const terms = query.search === undefined ? [] : searchTerms(query.search);
  const ftsTerms = mode === 'fts' ? (options.ftsTerms ?? terms.filter(isLong)) : [];
  if (ftsTerms.length > 0) {
    where.push('jobs_fts MATCH ?');
    params.push(ftsTerms.map(ftsPhrase).join(' AND '));
  }
  if (mode !== 'none') {
    for (const term of terms) {
      if (ftsTerms.includes(term)) continue;
      where.push('instr(j.search_text, ?) > 0');
      params.push(term);
      key.push('s');
    }
  }
  if (query.view === 'active') where.push('j.trashed_at IS NULL');
  else if (query.view === 'trash') where.push('j.trashed_at IS NOT NULL');
  key.push(query.view);
  if (query.status !== undefined) {
    const statuses = [...new Set(query.status)];
    where.push(`j.status IN (${statuses.map(() => '?').join(', ')})`);
    params.push(...statuses);
    key.push(`st${statuses.length}`);
  }
  if (query.favorite !== undefined) {
    // A literal, so the planner can use the partial favorites index.
    where.push(query.favorite ? 'j.favorite = 1' : 'j.favorite = 0');
    key.push(query.favorite ? 'fav1' : 'fav0');
  }
  if (query.provider !== undefined) {
    where.push('j.provider = ?');
    params.push(query.provider);
    key.push('prov');
  }
  const before = options.before ?? (query.cursor === undefined ? undefined : decodeCursor(query.cursor));
  if (before !== undefined) {
    where.push('(j.created_at, j.id) < (?, ?)');
    params.push(before.createdAt, before.id);
    key.push('cur');
  }
  if (mode === 'walk' && options.floor !== undefined) {
    where.push('(j.created_at, j.id) >= (?, ?)');
    params.push(options.floor.createdAt, options.floor.id);
    key.push('floor');
  }
  params.push(limit);
  const filter = where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`;
  const order = 'ORDER BY j.created_at DESC, j.id DESC';
  let sql = `SELECT ${SUMMARY_COLUMNS} FROM jobs AS j ${filter} ${order} LIMIT ?`;
  if (mode === 'fts') {
    key.push(`m${ftsTerms.length}`);
    // Every match is sorted, so the sort carries only its keys and rowid; the page's columns are read after the LIMIT.
    // CROSS JOIN fixes the order: matches come from the full-text index, then their rows by rowid.
    sql = `SELECT ${SUMMARY_COLUMNS} FROM (
        SELECT j.rowid AS rid FROM jobs_fts AS f CROSS JOIN jobs AS j ON j.rowid = f.rowid ${filter} ${order} LIMIT ?
      ) AS page CROSS JOIN jobs AS j ON j.rowid = page.rid ${order}`;
  }
  return { sql, params, key: key.join('|'), name: mode === 'none' ? 'jobs.list' : `jobs.list.search.${mode}` };
}

export interface SearchTuning {
  /** Rows walked newest-first before the full-text index is consulted; 0 consults it at once. */
  walkBudget: number;
  /** Full-text matches above which a term is too common for the index to beat walking on. */
  denseThreshold: number;
}

export function createSearch(ctx: StoreContext, images: Images, tuning: SearchTuning) {
  const probe = ctx.sql.prepare<{ n: number }>(
    'jobs.search.probe',
    'SELECT COUNT(*) AS n FROM (SELECT rowid FROM jobs_fts WHERE jobs_fts MATCH ? LIMIT ?)',
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

  function rows(query: ListQuery, mode: 'fts' | 'walk' | 'none', limit: number, options?: PlanOptions): SummaryRow[] {
    const plan = planList(query, mode, limit, options);
    return ctx.sql.cached<unknown[]>(plan.name, plan.key, () => plan.sql, { raw: true }).all(...plan.params).map(summaryRowFrom);
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

  const matchesUpTo = (term: string, cap: number) => probe.get(ftsPhrase(term), cap + 1)!.n;

  /**
   * Up to `want` rows of the page. A term with a page or two of full-text matches goes straight to the index.
   * Common terms fill the page from a bounded walk of the newest rows. Past the budget, a term with few matches
   * goes through the index (matches sorted by their keys only); when every term has many, the walk goes on.
   */
  function search(query: ListQuery, terms: string[], want: number): SummaryRow[] {
    // Longest first: a longer phrase is usually the rarer one.
    const longTerms = terms.filter(isLong).sort((a, b) => [...b].length - [...a].length);
    if (longTerms.length === 0) return rows(query, 'walk', want);
    const fts = (term: string) => rows(query, 'fts', want, { ftsTerms: [term] });
    const fewCap = Math.min(tuning.denseThreshold, FEW_MATCHES_PAGES * want);
    if (matchesUpTo(longTerms[0]!, fewCap) <= fewCap) return fts(longTerms[0]!);

    let found: SummaryRow[] = [];
    let floor: CursorPosition | undefined;
    if (tuning.walkBudget > 0) {
      floor = floorOf(query);
      found = rows(query, 'walk', want, floor === undefined ? {} : { floor });
      if (found.length >= want || floor === undefined) return found;
    }
    // The walk measured the density: if the page should fill within a few more budgets, walking on is cheaper.
    const walkOn = found.length * (WALK_ON_BUDGETS + 1) >= want;
    const sparse = walkOn ? undefined : longTerms.find((t) => matchesUpTo(t, tuning.denseThreshold) <= tuning.denseThreshold);
    if (sparse !== undefined) return fts(sparse);
    if (floor === undefined) return rows(query, 'walk', want);
    return [...found, ...rows(query, 'walk', want - found.length, { before: floor })];
  }

  return {
    list(query: ListQuery): ListPage {
      const limit = query.limit;
      const terms = query.search === undefined ? [] : searchTerms(query.search);
      const found =
        terms.length === 0
          ? rows(query, 'none', limit + 1)
          : ctx.sql.time('jobs.list.search', () => search(query, terms, limit + 1));
      const more = found.length > limit;
      const page = more ? found.slice(0, limit) : found;
      const imagesByJob = images.summariesFor(page.map((r) => r.id));
      const last = page[page.length - 1];
      return {
        items: page.map((row) => toSummary(row, imagesByJob.get(row.id) ?? [])),
        nextCursor: more && last !== undefined ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
      };
    },
  };
}
