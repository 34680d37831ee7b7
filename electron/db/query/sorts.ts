import type { Sort } from '../../../shared/contract.js';
import type { CursorPosition } from '../cursor.js';
import type { SummaryRow } from '../context.js';

/** A sort other than newest first: its ORDER BY, and the condition for rows after the cursor's. */
export interface SortPlan {
  name: string;
  orderBy: string;
  after?: { sql: string; params: unknown[] };
}

const SHUFFLE_PRIME = 2_147_483_647;
const SHUFFLE_MULTIPLIER = 2_654_435_761;

/** Each shuffle number picks its own multiplier (never 0 mod the prime): a different permutation, not a rotation. */
function multiplierOf(shuffle: number): bigint {
  return 1n + ((BigInt(Math.trunc(shuffle)) * BigInt(SHUFFLE_MULTIPLIER) + 12_345n) % BigInt(SHUFFLE_PRIME - 1));
}

/** A row's place in a shuffle: the same for the same shuffle number, so pages never repeat or skip a job. */
export function shuffleKey(rowid: number, shuffle: number): number {
  return Number((BigInt(rowid) * multiplierOf(shuffle)) % BigInt(SHUFFLE_PRIME));
}

/** The ORDER BY and the after-the-cursor condition for oldest, rating and random. */
export function sortPlan(sort: Exclude<Sort, 'newest'>, cursor: CursorPosition | undefined, shuffle: number): SortPlan {
  switch (sort) {
    case 'oldest':
      return {
        name: sort,
        orderBy: 'j.created_at ASC, j.id ASC',
        ...(cursor && { after: { sql: '(j.created_at, j.id) > (?, ?)', params: [cursor.createdAt, cursor.id] } }),
      };
    case 'rating':
      return {
        name: sort,
        orderBy: 'j.best_rating DESC, j.created_at DESC, j.id DESC',
        ...(cursor && {
          after: {
            sql: '(j.best_rating, j.created_at, j.id) < (?, ?, ?)',
            params: [cursor.k ?? 0, cursor.createdAt, cursor.id],
          },
        }),
      };
    case 'random': {
      // The multiplier is computed here from a validated integer: inlined, so the ORDER BY needs no parameter.
      const key = `((j.rowid * ${multiplierOf(shuffle)}) % ${SHUFFLE_PRIME})`;
      return {
        name: `${sort}${Math.trunc(shuffle)}`,
        orderBy: `${key}, j.id`,
        ...(cursor && { after: { sql: `(${key}, j.id) > (?, ?)`, params: [cursor.k ?? 0, cursor.id] } }),
      };
    }
  }
}

/** Where the next page starts, in the sort's own terms. */
export function sortCursor(sort: Sort, row: SummaryRow, shuffle: number): CursorPosition {
  const base = { createdAt: row.created_at, id: row.id };
  if (sort === 'rating') return { ...base, k: row.best_rating };
  if (sort === 'random') return { ...base, k: shuffleKey(row.rowid, shuffle) };
  return base;
}
