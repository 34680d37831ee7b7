import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import type { JobStore } from '../../../electron/db/types.js';
import { manualClock, open, req } from './helpers.js';

function queueOf(store: JobStore): string[] {
  return store.queued(2_000).map((q) => q.id);
}

function submitMany(store: JobStore, n: number): string[] {
  return Array.from({ length: n }, (_, i) => store.submit(req(`job ${i}`)).job.id);
}

/** The reference: the same move on a plain array. */
function moved(order: string[], ids: string[], before: string | null): string[] {
  const moving = [...new Set(ids)].filter((id) => order.includes(id) && id !== before);
  const rest = order.filter((id) => !moving.includes(id));
  const at = before === null ? rest.length : rest.indexOf(before);
  return [...rest.slice(0, at), ...moving, ...rest.slice(at)];
}

describe('the queue order', () => {
  it('moves jobs before another, to the top and to the end, in the order given', () => {
    const clock = manualClock();
    const store = open({ now: clock.now });
    const [a, b, c, d, e] = submitMany(store, 5) as [string, string, string, string, string];
    expect(store.queue.reorder([e, d], b)).toBe(2);
    expect(queueOf(store)).toEqual([a, e, d, b, c]);
    expect(store.queue.reorder([c], a)).toBe(1);
    expect(queueOf(store)).toEqual([c, a, e, d, b]);
    expect(store.queue.reorder([c, a], null)).toBe(2);
    expect(queueOf(store)).toEqual([e, d, b, c, a]);
    // A job submitted after the moves still joins the end.
    const f = store.submit(req('late')).job.id;
    expect(queueOf(store).at(-1)).toBe(f);
    expect(store.queue.queueView(10).queued.map((j) => j.id)).toEqual(queueOf(store));
  });

  it('leaves out jobs that are not queued, and moves nothing for an unknown target', () => {
    const clock = manualClock();
    const store = open({ now: clock.now });
    const [a, b, c] = submitMany(store, 3) as [string, string, string];
    store.claim(a);
    expect(store.queue.reorder([a, 'nope'], b)).toBe(0);
    expect(store.queue.reorder([c], 'nope')).toBe(0);
    expect(queueOf(store)).toEqual([b, c]);
    expect(store.queue.queueView(10).running.map((j) => j.id)).toEqual([a]);
  });

  it('keeps its order through 200 moves into the same gap (ranks are renumbered when they run out)', () => {
    const clock = manualClock();
    const store = open({ now: clock.now });
    const ids = submitMany(store, 6);
    let order = queueOf(store);
    for (let i = 0; i < 200; i += 1) {
      const mover = order[order.length - 1]!;
      const target = order[1]!;
      store.queue.reorder([mover], target);
      order = moved(order, [mover], target);
      expect(queueOf(store)).toEqual(order);
    }
    expect(new Set(order)).toEqual(new Set(ids));
  });

  it('matches a plain list for any sequence of moves', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            pick: fc.array(fc.nat(11), { minLength: 1, maxLength: 4 }),
            before: fc.option(fc.nat(11)),
          }),
          { maxLength: 25 },
        ),
        (moves) => {
          const clock = manualClock();
          const store = open({ now: clock.now });
          const ids = submitMany(store, 12);
          let order = [...ids];
          for (const move of moves) {
            const pick = move.pick.map((i) => ids[i]!);
            const before = move.before === null ? null : ids[move.before]!;
            store.queue.reorder(pick, before);
            order = moved(order, pick, before);
          }
          expect(queueOf(store)).toEqual(order);
          store.close();
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('cancelling the whole queue', () => {
  it('cancels only when the count the person confirmed is still the count, per target or all', () => {
    const clock = manualClock();
    const store = open({ now: clock.now });
    submitMany(store, 3);
    const other = store.submit({ ...req('elsewhere'), provider: 'openai' }).job.id;
    const running = store.submit(req('running')).job.id;
    store.claim(running);
    expect(store.queue.queuedCount()).toBe(4);
    expect(store.queue.queuedCount('openai')).toBe(1);
    const refused = (() => {
      try {
        store.queue.cancelQueued(3);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'conflict', details: { expected: 3, actual: 4 } });
    expect(store.queue.queuedCount()).toBe(4);

    expect(store.queue.cancelQueued(1, 'openai')).toEqual([other]);
    expect(store.get(other)).toMatchObject({ status: 'cancelled' });
    expect(store.get(other).events.at(-1)?.kind).toBe('cancelled');
    const ids = store.queue.cancelQueued(3);
    expect(ids).toHaveLength(3);
    expect(store.queue.queuedCount()).toBe(0);
    expect(store.get(running).status).toBe('running');
    expect(store.stats().byStatus.cancelled).toBe(4);
  });
});

describe('the queue query plans', () => {
  it('walks the queue in order through jobs_queue_order, with no sort', () => {
    const store = open();
    submitMany(store, 3);
    const plan = explain(
      store,
      `SELECT id FROM jobs INDEXED BY jobs_queue_order WHERE status = 'queued' AND cancel_requested = 0
       ORDER BY COALESCE(queue_rank, created_at), created_at, id LIMIT 50`,
    );
    expect(plan).toMatch(/USING INDEX jobs_queue_order/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });
});

function explain(store: JobStore, sql: string): string {
  const db = new Database(store.info.databasePath, { readonly: true });
  try {
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join('\n');
  } finally {
    db.close();
  }
}
