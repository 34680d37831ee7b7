/**
 * The queue's order and its bulk actions (migration 17). A queued job stands at `queue_rank`, or at its creation time
 * when never moved, so a submit writes no rank and a move writes only the jobs it moves; ranks are renumbered only
 * when repeated moves into one gap exhaust a double's precision.
 */
import type { JobSummary } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { toSummary } from './codec.js';
import { SUMMARY_COLUMNS, type StoreContext, type SummaryRow } from './context.js';
import type { Events } from './events.js';
import type { Access } from './guard.js';
import type { Images } from './images.js';
import { ROW_BYTES_SQL } from './job-submit.js';

export interface QueueReads {
  /** Running jobs, then queued jobs in the order they will start (at most `limit` queued), and how many are queued. */
  queueView(limit: number): { running: JobSummary[]; queued: JobSummary[]; queuedTotal: number };
  /** How many jobs are queued (for one target when given): what a cancel-all confirms. */
  queuedCount(target?: string): number;
}

export interface QueueWrites {
  /**
   * Moves queued jobs, in the order given, to just before `before` (null: the end of the queue); ids that are not
   * queued are left out. Answers how many moved.
   */
  reorder(ids: readonly string[], before: string | null): number;
  /** Cancels every queued job (for one target when given) if there are exactly `expected`, else refuses with the count. */
  cancelQueued(expected: number, target?: string): string[];
}

export type QueueStore = QueueReads & QueueWrites;

const RANK = 'COALESCE(queue_rank, created_at)';
/** Below this gap between neighbours a double can no longer tell new ranks apart: the queue is renumbered first. */
const MIN_GAP = 1e-3;
const SPACING = 1024;

export function createQueue(ctx: StoreContext, images: Images, events: Events): Access<QueueReads, QueueWrites> {
  const { sql } = ctx;
  const running = sql.prepare<SummaryRow>(
    'queue.running',
    `SELECT ${SUMMARY_COLUMNS} FROM jobs AS j WHERE j.status = 'running' ORDER BY j.started_at, j.id`,
  );
  const queued = sql.prepare<SummaryRow>(
    'queue.queued',
    `SELECT ${SUMMARY_COLUMNS} FROM jobs AS j INDEXED BY jobs_queue_order WHERE j.status = 'queued' AND j.cancel_requested = 0
     ORDER BY COALESCE(j.queue_rank, j.created_at), j.created_at, j.id LIMIT ?`,
  );
  const countAll = sql.prepare<{ n: number }>(
    'queue.count',
    "SELECT COUNT(*) AS n FROM jobs WHERE status = 'queued' AND cancel_requested = 0",
  );
  const countFor = sql.prepare<{ n: number }>(
    'queue.countFor',
    "SELECT COUNT(*) AS n FROM jobs WHERE status = 'queued' AND cancel_requested = 0 AND provider = ?",
  );
  const rankOf = sql.prepare<{ rank: number; created_at: number; id: string }>(
    'queue.rankOf',
    `SELECT ${RANK} AS rank, created_at, id FROM jobs WHERE id = ? AND status = 'queued'`,
  );
  // The neighbour just ahead of a position, skipping the jobs being moved (they are listed in json_each).
  const before = sql.prepare<{ rank: number }>(
    'queue.ahead',
    `SELECT ${RANK} AS rank FROM jobs WHERE status = 'queued' AND cancel_requested = 0
       AND (${RANK}, created_at, id) < (@rank, @created, @id) AND id NOT IN (SELECT value FROM json_each(@moving))
     ORDER BY ${RANK} DESC, created_at DESC, id DESC LIMIT 1`,
  );
  const last = sql.prepare<{ rank: number }>(
    'queue.last',
    `SELECT ${RANK} AS rank FROM jobs WHERE status = 'queued' AND cancel_requested = 0
       AND id NOT IN (SELECT value FROM json_each(?))
     ORDER BY ${RANK} DESC, created_at DESC, id DESC LIMIT 1`,
  );
  const setRank = sql.prepare(
    'queue.setRank',
    "UPDATE jobs SET queue_rank = @rank, updated_at = MAX(@now, updated_at + 1) WHERE id = @id AND status = 'queued'",
  );
  const renumber = sql.prepare(
    'queue.renumber',
    `UPDATE jobs SET queue_rank = ordered.n * ${SPACING}
       FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY ${RANK}, created_at, id) AS n FROM jobs WHERE status = 'queued') AS ordered
     WHERE jobs.id = ordered.id`,
  );
  const queuedIds = sql.prepare<{ id: string }>(
    'queue.ids',
    "SELECT id FROM jobs WHERE status = 'queued' AND cancel_requested = 0 AND id IN (SELECT value FROM json_each(?))",
  );
  const cancelAll = sql.prepare<{ id: string }>(
    'queue.cancelAll',
    `UPDATE jobs SET status = 'cancelled', cancel_requested = 1, updated_at = MAX(@now, updated_at + 1), completed_at = @now,
       error_json = @error
     WHERE status = 'queued' AND cancel_requested = 0 AND (@target IS NULL OR provider = @target) RETURNING id`,
  );
  const resize = sql.prepare('queue.resize', `UPDATE jobs SET logical_bytes = ${ROW_BYTES_SQL} WHERE id = ?`);

  const count = (target?: string): number => (target === undefined ? countAll.get() : countFor.get(target))?.n ?? 0;

  /** The gap the moved jobs go into: (ahead, at) exclusive. */
  const gapFor = (moving: string, beforeId: string | null): { ahead: number; at: number } | null => {
    if (beforeId === null) {
      const tail = last.get(moving)?.rank;
      // Just past the last job, by less than a millisecond: a job submitted later still joins behind.
      return tail === undefined ? null : { ahead: tail, at: tail + 1 };
    }
    const target = rankOf.get(beforeId);
    if (target === undefined) return null;
    const ahead = before.get({ rank: target.rank, created: target.created_at, id: target.id, moving })?.rank;
    return { ahead: ahead ?? target.rank - SPACING, at: target.rank };
  };

  const reorderTx = ctx.db.transaction((ids: readonly string[], beforeId: string | null): number => {
    const wanted = JSON.stringify(ids);
    const present = new Set(queuedIds.all(wanted).map((r) => r.id));
    const moving = [...new Set(ids)].filter((id) => present.has(id) && id !== beforeId);
    if (moving.length === 0) return 0;
    const list = JSON.stringify(moving);
    let gap = gapFor(list, beforeId);
    if (gap === null) {
      if (beforeId !== null) return 0;
      // Moving everything to the end of a queue that holds only them: their order alone changes.
      gap = { ahead: 0, at: SPACING * (moving.length + 1) };
    }
    if ((gap.at - gap.ahead) / (moving.length + 1) < MIN_GAP) {
      renumber.run();
      gap = gapFor(list, beforeId) ?? gap;
    }
    const step = (gap.at - gap.ahead) / (moving.length + 1);
    const now = ctx.now();
    moving.forEach((id, i) => setRank.run({ id, rank: gap.ahead + step * (i + 1), now }));
    return moving.length;
  });

  const cancelTx = ctx.db.transaction((expected: number, target: string | null): string[] => {
    const actual = count(target ?? undefined);
    if (actual !== expected) {
      throw new AppError(
        'conflict',
        `The queue holds ${actual} job${actual === 1 ? '' : 's'} now, not ${expected}: nothing was cancelled. Look again and confirm.`,
        { details: { expected, actual } },
      );
    }
    const error = JSON.stringify({
      code: 'cancelled',
      message: 'Cancelled with the rest of the queue.',
      retryable: false,
    });
    const ids = cancelAll.all({ now: ctx.now(), error, target }).map((r) => r.id);
    for (const id of ids) {
      resize.run(id);
      events.append(id, 'cancelled', 'Cancelled with the rest of the queue.');
    }
    return ids;
  });

  return {
    reads: {
      queueView(limit) {
        const run = running.all();
        const wait = queued.all(Math.max(0, Math.trunc(limit)));
        const rows = [...run, ...wait];
        const imagesByJob = images.summariesFor(rows.map((r) => r.id));
        const summary = (row: SummaryRow): JobSummary => toSummary(row, imagesByJob.get(row.id) ?? []);
        return { running: run.map(summary), queued: wait.map(summary), queuedTotal: count() };
      },
      queuedCount: count,
    },
    writes: {
      reorder: (ids, beforeId) => sql.time('queue.reorder', () => reorderTx.immediate(ids, beforeId)),
      cancelQueued: (expected, target) => cancelTx.immediate(expected, target ?? null),
    },
  };
}
