import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JOB_STATUSES } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { JobStore } from '../../../electron/db/types.js';
import { image, manualClock, open, req, tempDir } from './helpers.js';

const MAX_PENDING = 4;

type Op =
  | { kind: 'submit' }
  | {
      kind: 'claim' | 'succeed' | 'fail' | 'requestCancel' | 'markCancelled' | 'trash' | 'restore' | 'purge';
      pick: number;
    }
  | { kind: 'favorite'; pick: number; value: boolean }
  | { kind: 'emptyTrash' | 'recover' }
  | { kind: 'prune'; maxJobs: number };

// Operations aim at the three newest jobs, so one job often goes through a whole life (claim, succeed, trash, ...).
const pick = fc.nat(2);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Op>({ kind: 'submit' }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('claim' as const, 'succeed' as const), pick }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom('fail' as const, 'requestCancel' as const, 'markCancelled' as const),
      pick,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constantFrom('trash' as const, 'restore' as const, 'purge' as const), pick }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('favorite' as const), pick, value: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('emptyTrash' as const, 'recover' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('prune' as const), maxJobs: fc.nat(6) }) },
);

/** The truth, counted from the rows themselves on a second connection. */
function counted(db: Database.Database) {
  const byStatus = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<string, number>;
  for (const row of db.prepare('SELECT status, COUNT(*) AS n FROM jobs GROUP BY status').all() as Array<{
    status: string;
    n: number;
  }>) {
    byStatus[row.status] = row.n;
  }
  const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  return {
    byStatus,
    total: one('SELECT COUNT(*) AS n FROM jobs'),
    trashed: one('SELECT COUNT(*) AS n FROM jobs WHERE trashed_at IS NOT NULL'),
    favorites: one('SELECT COUNT(*) AS n FROM jobs WHERE favorite = 1 AND trashed_at IS NULL'),
    images: one('SELECT COUNT(*) AS n FROM images'),
    imageBytes: one('SELECT COALESCE(SUM(bytes), 0) AS n FROM images'),
  };
}

function apply(store: JobStore, ids: string[], step: Op, imageBytes: number): void {
  const target = 'pick' in step ? ids[ids.length - 1 - (step.pick % Math.max(1, ids.length))] : undefined;
  // Operations on a job in the wrong state are refused with an AppError; the counts must not move then.
  const tolerate = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  };
  switch (step.kind) {
    case 'submit':
      tolerate(() => ids.push(store.submit(req(`job ${ids.length}`)).job.id));
      return;
    case 'recover':
      store.recoverInterrupted();
      return;
    case 'emptyTrash':
      store.emptyTrash();
      return;
    case 'prune':
      store.prune({ maxJobs: step.maxJobs });
      return;
  }
  if (target === undefined) return;
  switch (step.kind) {
    case 'claim':
      store.claim(target);
      return;
    case 'succeed':
      tolerate(() => store.succeed(target, [image(0, undefined, imageBytes), image(1, undefined, 7)], { timings: {} }));
      return;
    case 'fail':
      tolerate(() => store.fail(target, { code: 'provider_error', message: 'no', retryable: false }));
      return;
    case 'requestCancel':
      tolerate(() => store.requestCancel(target));
      return;
    case 'markCancelled':
      tolerate(() => store.markCancelled(target));
      return;
    case 'favorite':
      store.setFavorite([target], step.value);
      return;
    case 'trash':
      store.trash([target]);
      return;
    case 'restore':
      store.restore([target]);
      return;
    case 'purge':
      store.purge([target]);
      return;
  }
}

describe('store totals kept by triggers (model)', () => {
  it('stats() and the pending-capacity check agree with counting the rows, through every operation', () => {
    fc.assert(
      fc.property(
        fc.array(op, { minLength: 10, maxLength: 60, size: 'max' }),
        fc.integer({ min: 1, max: 5000 }),
        (ops, imageBytes) => {
          const dir = tempDir();
          const store = open({ dataDir: dir, now: manualClock().now, limits: { maxPendingJobs: MAX_PENDING } });
          const raw = new Database(join(dir, 'atelier.db'), { readonly: true });
          try {
            const ids: string[] = [];
            for (const step of ops) {
              const before = counted(raw);
              const pendingBefore = before.byStatus.queued! + before.byStatus.running!;
              const submitted = ids.length;
              apply(store, ids, step, imageBytes);
              const truth = counted(raw);
              const { databaseBytes: _bytes, ...stats } = store.stats();
              expect(stats, JSON.stringify(step)).toEqual(truth);
              // prune's job budget reads the maintained job count too.
              expect(raw.prepare('SELECT jobs FROM store_totals').get()).toEqual({ jobs: truth.total });
              // Admission reads the maintained count: a submit is refused exactly when the queue is full.
              if (step.kind === 'submit') expect(ids.length > submitted).toBe(pendingBefore < MAX_PENDING);
            }
          } finally {
            raw.close();
            store.close();
          }
        },
      ),
      { numRuns: 50 },
    );
  });

  it('keeps counting across a reopen that recovers running jobs as interrupted', () => {
    const dir = tempDir();
    const store = open({ dataDir: dir });
    const running = store.submit(req('a')).job.id;
    store.submit(req('b'));
    store.claim(running);
    store.close();
    const reopened = open({ dataDir: dir });
    expect(reopened.info.recoveredInterrupted).toBe(1);
    expect(reopened.stats().byStatus).toMatchObject({ queued: 1, running: 0, interrupted: 1 });
    expect(reopened.stats().total).toBe(2);
  });
});
