/** Which index tokens a search ANDs: the rarest of each term, from estimates kept for the session. */
import type { StoreContext } from './context.js';
import { matchAll, termTokens } from './grams.js';

/** Matches read from each end of a token's postings to estimate how many jobs hold it. */
const SAMPLE = 256;
/** A token held by more than this share of jobs filters too little to repay reading its postings in an AND. */
const COMMON_SHARE = 0.25;
/** Tokens ANDed in one index query: the rarest few settle it; more only add postings to read. */
const MAX_MATCH_TOKENS = 4;
/** Trigrams of one long term whose frequency is estimated (a pasted sentence would otherwise sample dozens). */
const MAX_TERM_CANDIDATES = 8;
/** Token frequency estimates kept for the session (search as you type repeats them keystroke after keystroke). */
const ESTIMATE_CACHE_SIZE = 4_096;

/** The history's rowid range and size (jobs.search.extent). */
export interface Extent {
  lo: number | null;
  hi: number | null;
  total: number;
  /** store_totals.order_breaks: 0 while rowid order is history order (migration 0004). */
  breaks: number;
}

/** A long term's trigrams worth estimating: non-overlapping ones and the last, so typing adds one or two. */
function candidates(tokens: string[]): string[] {
  if (tokens.length <= 2) return tokens;
  const picked = tokens.filter((_, i) => i % 3 === 0).slice(0, MAX_TERM_CANDIDATES - 1);
  const last = tokens[tokens.length - 1]!;
  return picked.includes(last) ? picked : [...picked, last];
}

export function createSearchTokens(ctx: StoreContext) {
  const probe = ctx.sql.prepare<{ n: number }>(
    'jobs.search.probe',
    'SELECT COUNT(*) AS n FROM (SELECT rowid FROM jobs_grams WHERE jobs_grams MATCH ? LIMIT ?)',
  );
  // A token's newest and oldest matches: few enough to count exactly, or how many rowids SAMPLE of them span.
  const sampleNewest = ctx.sql.prepare<{ n: number; edge: number | null }>(
    'jobs.search.sampleNewest',
    'SELECT COUNT(*) AS n, MIN(rowid) AS edge FROM (SELECT rowid FROM jobs_grams WHERE jobs_grams MATCH ? ORDER BY rowid DESC LIMIT ?)',
  );
  const sampleOldest = ctx.sql.prepare<{ n: number; edge: number | null }>(
    'jobs.search.sampleOldest',
    'SELECT COUNT(*) AS n, MAX(rowid) AS edge FROM (SELECT rowid FROM jobs_grams WHERE jobs_grams MATCH ? ORDER BY rowid ASC LIMIT ?)',
  );
  // Estimates only steer the plan (results never depend on them), so they are kept until the history has grown or
  // shrunk by an eighth.
  const estimates = new Map<string, number>();
  let estimatedAt = 0;

  const matchesUpTo = (tokens: string[], cap: number) => probe.get(matchAll(tokens), cap + 1)!.n;

  /** About how many jobs hold `token`: exact below SAMPLE, else from the density of its newest and oldest matches. */
  function estimate(token: string, lo: number, hi: number): number {
    const cached = estimates.get(token);
    if (cached !== undefined) return cached;
    const query = matchAll([token]);
    const recent = sampleNewest.get(query, SAMPLE)!;
    let count = recent.n;
    if (recent.n >= SAMPLE) {
      const early = sampleOldest.get(query, SAMPLE)!;
      const spanned = hi - recent.edge! + 1 + (early.edge! - lo + 1);
      count = Math.round((2 * SAMPLE * (hi - lo + 1)) / Math.max(spanned, 2 * SAMPLE));
    }
    if (estimates.size >= ESTIMATE_CACHE_SIZE) estimates.clear();
    estimates.set(token, count);
    return count;
  }

  /**
   * The tokens to AND: the rarest (estimated) token of each term, rarest term first, leaving out tokens most jobs
   * hold. Any subset finds every match (instr() checks the rest), so this only decides how much index is read.
   */
  function chooseTokens(terms: string[], { lo, hi, total }: Extent): string[] {
    if (lo === null || hi === null) return [...new Set(terms.flatMap(termTokens))];
    if (Math.abs(total - estimatedAt) * 8 > estimatedAt) {
      estimates.clear();
      estimatedAt = total;
    }
    const rarest = terms.map((term) => {
      let best = { token: '', count: Infinity };
      for (const token of candidates(termTokens(term))) {
        const count = estimate(token, lo, hi);
        if (count < best.count) best = { token, count };
      }
      return best;
    });
    rarest.sort((a, b) => a.count - b.count);
    const chosen: string[] = [];
    for (const { token, count } of rarest) {
      if (chosen.includes(token)) continue;
      if (chosen.length > 0 && (chosen.length >= MAX_MATCH_TOKENS || count > COMMON_SHARE * total)) break;
      chosen.push(token);
    }
    return chosen;
  }

  return {
    /** Index matches of all `tokens`, counted up to `cap` + 1. */
    matchesUpTo,
    chooseTokens,
    /** The last estimate of how many jobs hold `token` (0 when none was made). */
    estimated: (token: string): number => estimates.get(token) ?? 0,
  };
}
