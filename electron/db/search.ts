import type { ListPage, ListQuery } from '../../shared/contract.js';
import { toSummary } from './codec.js';
import { SUMMARY_COLUMNS, type StoreContext, type SummaryRow } from './context.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { searchTerms } from './fold.js';
import type { Images } from './images.js';

/** Past this many full-text matches a term is "dense": walking the history index with instr() finds a page sooner. */
export const DEFAULT_DENSE_SEARCH_THRESHOLD = 2_000;
/** The trigram index needs 3 characters; shorter terms are checked with instr() on the folded column. */
const TRIGRAM = 3;

/** A phrase in FTS5 syntax: inside double quotes every character is literal except the quote, which is doubled. */
export function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

export interface ListPlan {
  sql: string;
  params: unknown[];
  key: string;
  name: string;
}

/**
 * Builds the page query. Filters and search are in WHERE, so they apply before the cursor and the limit.
 * `mode` picks how search runs: `fts` starts from the trigram index (rare terms), `walk` walks the history
 * index newest-first and checks instr() on the folded text (dense terms, and 1–2 character terms).
 */
export function planList(query: ListQuery, mode: 'fts' | 'walk' | 'none', limit: number): ListPlan {
  const where: string[] = [];
  const params: unknown[] = [];
  const key: string[] = [mode];
  const terms = query.search === undefined ? [] : searchTerms(query.search);
  const longTerms = terms.filter((t) => [...t].length >= TRIGRAM);
  let from = 'jobs AS j';
  if (mode === 'fts') {
    // CROSS JOIN fixes the order: matches come from the full-text index, then their rows by rowid.
    from = 'jobs_fts AS f CROSS JOIN jobs AS j ON j.rowid = f.rowid';
    where.push('jobs_fts MATCH ?');
    params.push(longTerms.map(ftsPhrase).join(' AND '));
    for (const term of terms) {
      if ([...term].length < TRIGRAM) {
        where.push('instr(j.search_text, ?) > 0');
        params.push(term);
        key.push('s');
      }
    }
  } else if (mode === 'walk') {
    for (const term of terms) {
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
  if (query.cursor !== undefined) {
    const position = decodeCursor(query.cursor);
    where.push('(j.created_at, j.id) < (?, ?)');
    params.push(position.createdAt, position.id);
    key.push('cur');
  }
  params.push(limit);
  const sql = `SELECT ${SUMMARY_COLUMNS} FROM ${from}
    ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`}
    ORDER BY j.created_at DESC, j.id DESC LIMIT ?`;
  return { sql, params, key: key.join('|'), name: mode === 'none' ? 'jobs.list' : `jobs.list.search.${mode}` };
}

export function createSearch(ctx: StoreContext, images: Images, denseThreshold: number) {
  const probe = ctx.sql.prepare<{ n: number }>(
    'jobs.search.probe',
    'SELECT COUNT(*) AS n FROM (SELECT rowid FROM jobs_fts WHERE jobs_fts MATCH ? LIMIT ?)',
  );

  /** fts when the long terms match few rows; walk when they match many or when no term can use trigrams. */
  function chooseMode(search: string | undefined): 'fts' | 'walk' | 'none' {
    if (search === undefined) return 'none';
    const terms = searchTerms(search);
    if (terms.length === 0) return 'none';
    const longTerms = terms.filter((t) => [...t].length >= TRIGRAM);
    if (longTerms.length === 0) return 'walk';
    const matches = probe.get(longTerms.map(ftsPhrase).join(' AND '), denseThreshold + 1)!.n;
    return matches > denseThreshold ? 'walk' : 'fts';
  }

  return {
    chooseMode,
    list(query: ListQuery): ListPage {
      const limit = query.limit;
      const plan = planList(query, chooseMode(query.search), limit + 1);
      const stmt = ctx.sql.cached<SummaryRow>(plan.name, plan.key, () => plan.sql);
      const rows = stmt.all(...plan.params);
      const more = rows.length > limit;
      const page = more ? rows.slice(0, limit) : rows;
      const imagesByJob = images.summariesFor(page.map((r) => r.id));
      const last = page[page.length - 1];
      return {
        items: page.map((row) => toSummary(row, imagesByJob.get(row.id) ?? [])),
        nextCursor: more && last !== undefined ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
      };
    },
  };
}
