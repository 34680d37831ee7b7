/** The SQL of one history page: filters, search and cursor in WHERE, read one of several ways (PlanMode). */
import type { ListQuery } from '../../../shared/contract.js';
import { SUMMARY_COLUMNS } from '../context.js';
import { decodeCursor, type CursorPosition } from '../cursor.js';
import { searchTerms } from '../fold.js';
import { matchAll, termTokens, tokenIsExact } from '../grams.js';
import type { CompiledQuery, Through } from './compile.js';
import type { SortPlan } from './sorts.js';

export interface ListPlan {
  sql: string;
  params: unknown[];
  key: string;
  name: string;
}

export interface PlanOptions {
  /** The parsed query's SQL (default: the search split into words, as plain text terms). */
  compiled?: CompiledQuery | undefined;
  /** none: read the history through this index (a typed clause's, chosen by size); default: SQLite's choice. */
  indexedBy?: string;
  /**
   * Extra job-level conditions the chosen driver adds (redundant with the query, they only pick where to start).
   * With `through` (none, walk), the jobs are read instead from that table's index newest first, and the page stops.
   */
  driverWhere?: { sql: string; params: unknown[]; through?: Through };
  /** sorted: the order and its cursor condition. */
  sort?: SortPlan;
  /** fts, newest: the index tokens ANDed (default every token of every term); a term they miss gets instr(). */
  tokens?: string[];
  /** newest: only rows below this rowid (the cursor's place when rowid order is history order). */
  belowRowid?: number;
  /** walk: stop at this row (inclusive), the far end of the walk budget. */
  floor?: CursorPosition;
  /** Replaces the query's cursor: a walk that continues past an earlier one's floor. */
  before?: CursorPosition;
  /** none, walk: the rows are sorted (a small clause read through its own index), so the page's columns are read after the LIMIT. */
  sorts?: boolean;
}

export type PlanMode = 'fts' | 'newest' | 'walk' | 'none' | 'sorted';

/**
 * Builds the page query. Filters and search are in WHERE, so they apply before the cursor and the limit.
 * `mode` picks how search runs: `fts` starts from the gram index and sorts its matches, `newest` reads the index's
 * matches in descending rowid order and stops at the limit (only valid while rowid order is history order), `walk`
 * walks the history index newest-first and checks instr() on the folded text.
 */
export function planList(query: ListQuery, mode: PlanMode, limit: number, options: PlanOptions = {}): ListPlan {
  const where: string[] = [];
  const params: unknown[] = [];
  const key: string[] = [mode];
  // Where the image-level condition sits in `where` and `params` (a sorted page checks it after the sort).
  let images: { at: number; paramsAt: number; params: number } | undefined;
  const compiled = options.compiled;
  const terms = compiled?.terms ?? (query.search === undefined ? [] : searchTerms(query.search));
  const indexTerms = compiled?.indexTerms ?? terms;
  const indexed = mode === 'fts' || mode === 'newest' || mode === 'sorted';
  const tokens = indexed ? (options.tokens ?? [...new Set(indexTerms.flatMap(termTokens))]) : [];
  if (tokens.length > 0) {
    where.push(
      mode === 'sorted' ? 'j.rowid IN (SELECT rowid FROM jobs_grams WHERE jobs_grams MATCH ?)' : 'jobs_grams MATCH ?',
    );
    params.push(matchAll(tokens));
  }
  if (mode !== 'none') {
    for (const term of terms) {
      if (indexed && tokenIsExact(term) && tokens.includes(termTokens(term)[0]!)) continue;
      where.push('instr(j.search_text, ?) > 0');
      params.push(term);
      key.push('s');
    }
  }
  const view = compiled?.wantsTrash === true ? 'all' : query.view;
  if (view === 'active') where.push('j.trashed_at IS NULL');
  // A job in the trash, or one image of it (per-image trash, migration 0010).
  else if (view === 'trash') where.push('(j.trashed_at IS NOT NULL OR j.trashed_images > 0)');
  key.push(view);
  // Rejected images leave the default view (migration 0020); is:rejected asks for them.
  const hideRejected = view === 'active' && compiled?.wantsRejected !== true;
  if (hideRejected) {
    where.push('j.rejected = 0');
    key.push('norej');
  }
  if (compiled !== undefined) {
    where.push(...compiled.where);
    params.push(...compiled.params);
    key.push(`w${compiled.where.join('&')}`);
    if (compiled.imageWhere.length > 0) {
      const seen =
        view === 'active'
          ? ['i.trashed_at IS NULL', ...(hideRejected ? ['i.rejected = 0'] : [])]
          : view === 'trash'
            ? ['(j.trashed_at IS NOT NULL OR i.trashed_at IS NOT NULL)']
            : [];
      images = { at: where.length, paramsAt: params.length, params: compiled.imageParams.length };
      where.push(
        `EXISTS (SELECT 1 FROM images AS i WHERE i.job_id = j.id AND ${[...seen, ...compiled.imageWhere].join(' AND ')})`,
      );
      params.push(...compiled.imageParams);
      key.push(`i${compiled.imageWhere.join('&')}`);
    }
  }
  const through = mode === 'none' || mode === 'walk' ? options.driverWhere?.through : undefined;
  // Read through a clause's own table, the history key is its copy of the job's (migration 0022), so the cursor
  // and the order are a range of its index.
  const at = through === undefined ? 'j.created_at, j.id' : 'd.job_created_at, d.job_id';
  if (through !== undefined) {
    where.unshift(`d.${through.column} = ?`);
    params.unshift(through.value);
    key.push(`t${through.table}`);
  } else if (options.driverWhere !== undefined) {
    where.push(options.driverWhere.sql);
    params.push(...options.driverWhere.params);
    key.push(`d${options.driverWhere.sql}`);
  }
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
  if (query.source !== undefined) {
    where.push('j.source = ?');
    params.push(query.source);
    key.push('src');
  }
  const before =
    mode === 'sorted'
      ? undefined
      : (options.before ?? (query.cursor === undefined ? undefined : decodeCursor(query.cursor)));
  if (mode === 'sorted' && options.sort?.after !== undefined) {
    where.push(options.sort.after.sql);
    params.push(...options.sort.after.params);
    key.push('after');
  }
  if (before !== undefined) {
    where.push(`(${at}) < (?, ?)`);
    params.push(before.createdAt, before.id);
    key.push('cur');
  }
  if (mode === 'walk' && options.floor !== undefined) {
    where.push(`(${at}) >= (?, ?)`);
    params.push(options.floor.createdAt, options.floor.id);
    key.push('floor');
  }
  if (mode === 'newest' && options.belowRowid !== undefined) {
    // On the index's rowid, so FTS5 starts its descending scan there instead of skipping newer matches one by one.
    where.push('g.rowid < ?');
    params.push(options.belowRowid);
    key.push('below');
  }
  params.push(limit);
  const filter = where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`;
  const order =
    mode === 'sorted' && options.sort !== undefined
      ? `ORDER BY ${options.sort.orderBy}`
      : 'ORDER BY j.created_at DESC, j.id DESC';
  if (mode === 'sorted') key.push(options.sort?.name ?? '');
  const indexedBy =
    (mode === 'none' || mode === 'walk' || mode === 'sorted') && options.indexedBy !== undefined
      ? ` INDEXED BY ${options.indexedBy}`
      : '';
  if (indexedBy !== '') key.push(`ix${options.indexedBy}`);
  let sql = `SELECT ${SUMMARY_COLUMNS} FROM jobs AS j${indexedBy} ${filter} ${order} LIMIT ?`;
  if ((mode === 'none' || mode === 'walk') && options.sorts === true) {
    // Every match is sorted: the sort carries its keys and rowid only, and the page's columns (original_path's
    // subqueries among them) are read for the page alone.
    sql = `SELECT ${SUMMARY_COLUMNS} FROM (SELECT j.rowid AS rid FROM jobs AS j${indexedBy} ${filter} ${order} LIMIT ?) AS page
      CROSS JOIN jobs AS j ON j.rowid = page.rid ${order}`;
    key.push('late');
    if (images !== undefined && options.driverWhere?.through === undefined) {
      // The image check costs a read per job: the matching jobs are sorted first (the sort is kept by the scan of
      // the materialised list, no second sort), then checked newest first until the page is full.
      const { at, paramsAt } = images;
      const jobWhere = where.filter((_, n) => n !== at);
      const inner = jobWhere.length === 0 ? '' : `WHERE ${jobWhere.join(' AND ')}`;
      sql = `WITH s AS MATERIALIZED (
          SELECT j.rowid AS rid, j.created_at AS c, j.id AS k FROM jobs AS j${indexedBy} ${inner} ${order}
        )
        SELECT ${SUMMARY_COLUMNS} FROM s CROSS JOIN jobs AS j ON j.rowid = s.rid WHERE ${where[at]!}
        ORDER BY s.c DESC, s.k DESC LIMIT ?`;
      const imageParams = params.slice(paramsAt, paramsAt + images.params);
      params.splice(paramsAt, images.params);
      params.splice(params.length - 1, 0, ...imageParams);
      key.push('checked');
    }
  }
  if (through !== undefined) {
    // A job with several of the clause's images is one group; grouping on the index's own order needs no sort.
    const by = `d.job_created_at DESC, d.job_id DESC`;
    sql = `SELECT ${SUMMARY_COLUMNS} FROM ${through.table} AS d INDEXED BY ${through.index}
      CROSS JOIN jobs AS j ON j.id = d.job_id ${filter} GROUP BY d.job_created_at, d.job_id ORDER BY ${by} LIMIT ?`;
  }
  if (mode === 'newest') {
    // FTS5 yields matches by descending rowid with no sort, so the scan ends at the page's last match.
    sql = `SELECT ${SUMMARY_COLUMNS} FROM jobs_grams AS g CROSS JOIN jobs AS j ON j.rowid = g.rowid ${filter}
      ORDER BY g.rowid DESC LIMIT ?`;
  }
  if (mode === 'fts') {
    // Every match is sorted, so the sort carries only its keys and rowid; the page's columns are read after the LIMIT.
    // CROSS JOIN fixes the order: matches come from the gram index, then their rows by rowid.
    sql = `SELECT ${SUMMARY_COLUMNS} FROM (
        SELECT j.rowid AS rid FROM jobs_grams AS g CROSS JOIN jobs AS j ON j.rowid = g.rowid ${filter} ${order} LIMIT ?
      ) AS page CROSS JOIN jobs AS j ON j.rowid = page.rid ${order}`;
  }
  const name =
    mode === 'none'
      ? 'jobs.list'
      : mode === 'sorted'
        ? `jobs.list.sorted.${options.sort?.name ?? ''}`
        : `jobs.list.search.${mode}`;
  return { sql, params, key: key.join('|'), name };
}
