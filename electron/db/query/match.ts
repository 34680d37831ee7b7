import type { MatchQuery } from '../../../shared/contract.js';
import { matchAll, termTokens } from '../grams.js';
import type { CompiledQuery } from './compile.js';

export interface MatchSql {
  where: string[];
  params: unknown[];
}

/**
 * Everything a query matches, as one WHERE over `j` (and `i` for images): the list's filters, free text through the
 * gram index, typed clauses. For counts and for bulk actions on "all matches" (no page, no order).
 */
export function matchWhere(query: MatchQuery, compiled: CompiledQuery | undefined, level: 'jobs' | 'images'): MatchSql {
  const where: string[] = [];
  const params: unknown[] = [];
  const view = compiled?.wantsTrash === true ? 'all' : (query.view ?? 'active');
  if (view === 'active') where.push('j.trashed_at IS NULL');
  else if (view === 'trash') where.push('(j.trashed_at IS NOT NULL OR j.trashed_images > 0)');
  // Rejected images leave the default view (migration 0020); is:rejected asks for them.
  const hideRejected = view === 'active' && compiled?.wantsRejected !== true;
  if (hideRejected) where.push('j.rejected = 0');
  if (query.status !== undefined) {
    where.push(`j.status IN (${query.status.map(() => '?').join(', ')})`);
    params.push(...query.status);
  }
  if (query.favorite !== undefined) where.push(query.favorite ? 'j.favorite = 1' : 'j.favorite = 0');
  if (query.provider !== undefined) {
    where.push('j.provider = ?');
    params.push(query.provider);
  }
  if (query.source !== undefined) {
    where.push('j.source = ?');
    params.push(query.source);
  }
  if (compiled !== undefined) {
    const tokens = [...new Set(compiled.indexTerms.flatMap(termTokens))];
    if (tokens.length > 0) {
      where.push('j.rowid IN (SELECT rowid FROM jobs_grams WHERE jobs_grams MATCH ?)');
      params.push(matchAll(tokens));
    }
    for (const term of compiled.terms) {
      where.push('instr(j.search_text, ?) > 0');
      params.push(term);
    }
    where.push(...compiled.where);
    params.push(...compiled.params);
  }
  const seen =
    view === 'active'
      ? ['i.trashed_at IS NULL', ...(hideRejected ? ['i.rejected = 0'] : [])]
      : view === 'trash'
        ? ['(j.trashed_at IS NOT NULL OR i.trashed_at IS NOT NULL)']
        : [];
  const imageWhere = [...seen, ...(compiled?.imageWhere ?? [])];
  if (query.favorite === true) imageWhere.push('i.favorite = 1');
  const imageParams = compiled?.imageParams ?? [];
  if (level === 'images') {
    where.push(...imageWhere);
    params.push(...imageParams);
  } else if ((compiled?.imageWhere.length ?? 0) > 0) {
    where.push(`EXISTS (SELECT 1 FROM images AS i WHERE i.job_id = j.id AND ${imageWhere.join(' AND ')})`);
    params.push(...imageParams);
  }
  return { where, params };
}
