import type { StoreContext } from './context.js';
import { foldForSearch, searchTerms } from './fold.js';
import type { Access } from './guard.js';

/** The history keeps this many prompts: the newest by last use. */
export const PROMPT_HISTORY_LIMIT = 5_000;

export interface HistoryEntry {
  prompt: string;
  usedAt: number;
  uses: number;
}

/** Prompts used, newest first. */
export interface PromptHistoryReads {
  /** Newest first; every whitespace-separated term of `search` must appear, whatever its case or accents. */
  list(search: string | undefined, limit: number): HistoryEntry[];
}

/** Prompts recorded as used (guarded as a write). */
export interface PromptHistoryWrites {
  /** Records prompts as used now, in order (the last is the newest), in one transaction; drops the oldest past the limit. */
  record(prompts: string[]): void;
}

export type PromptHistoryStore = PromptHistoryReads & PromptHistoryWrites;

interface HistoryRow {
  text: string;
  used_at: number;
  uses: number;
}

export function createPromptHistory(
  ctx: StoreContext,
  keep = PROMPT_HISTORY_LIMIT,
): Access<PromptHistoryReads, PromptHistoryWrites> {
  const { sql } = ctx;
  const upsert = sql.prepare(
    'prompts.record',
    `INSERT INTO prompt_history (text, folded, used_at, uses, seq)
     VALUES (?, ?, ?, 1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM prompt_history))
     ON CONFLICT (text) DO UPDATE SET used_at = excluded.used_at, uses = uses + 1, seq = excluded.seq`,
  );
  // Walks the seq index from the newest: the row at position `keep` and everything older go.
  const trim = sql.prepare(
    'prompts.trim',
    'DELETE FROM prompt_history WHERE seq <= (SELECT seq FROM prompt_history ORDER BY seq DESC LIMIT 1 OFFSET ?)',
  );
  const newest = sql.prepare<HistoryRow>(
    'prompts.list',
    'SELECT text, used_at, uses FROM prompt_history ORDER BY seq DESC LIMIT ?',
  );

  const record = ctx.db.transaction((prompts: string[]) => {
    const now = ctx.now();
    for (const prompt of prompts) upsert.run(prompt, foldForSearch(prompt), now);
    trim.run(keep);
  });

  const list = (search: string | undefined, limit: number): HistoryEntry[] => {
    const terms = [...new Set(searchTerms(search ?? ''))];
    const rows =
      terms.length === 0
        ? newest.all(limit)
        : sql
            .cached<HistoryRow>(
              'prompts.search',
              `prompts.search|${terms.length}`,
              () =>
                `SELECT text, used_at, uses FROM prompt_history WHERE ${terms.map(() => 'instr(folded, ?) > 0').join(' AND ')} ORDER BY seq DESC LIMIT ?`,
            )
            .all(...terms, limit);
    return rows.map((row) => ({ prompt: row.text, usedAt: row.used_at, uses: row.uses }));
  };

  return { reads: { list }, writes: { record: (prompts) => (prompts.length === 0 ? undefined : record(prompts)) } };
}
