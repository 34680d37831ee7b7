import type Database from 'better-sqlite3';

/**
 * model_usage_best(rank, id): the job id of the highest rank in a group, with the rank ("<rank> <id>"), in one pass
 * where SQLite's bare column would take two. Registered on the main connection and on the counting thread's.
 */
export function registerModelUsageBest(db: Database.Database): void {
  db.aggregate('model_usage_best', {
    start: () => ({ rank: -1, id: '' }),
    step: (best: { rank: number; id: string }, rank: number, id: string) => {
      if (rank > best.rank) {
        best.rank = rank;
        best.id = id;
      }
      return best;
    },
    result: (best: { rank: number; id: string }) => `${best.rank} ${best.id}`,
    // better-sqlite3's typings allow one argument per step; the aggregate takes two (rank, id).
  } as unknown as Parameters<Database.Database['aggregate']>[1]);
}
