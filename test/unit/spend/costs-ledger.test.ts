import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createCosts, type JobCostEntry } from '../../../electron/db/costs.js';
import type { StoreContext } from '../../../electron/db/context.js';
import { DEFAULT_LIMITS } from '../../../electron/db/context.js';
import { Named, type Statements } from '../../../electron/db/statements.js';
import { migrate } from '../../../electron/db/migrations/runner.js';
import { MIGRATIONS } from '../../../electron/db/migrations/index.js';
import { open, tempDir } from '../db/helpers.js';

const entry = (jobId: string, over: Partial<JobCostEntry> = {}): JobCostEntry => ({
  jobId,
  providerId: 'bfl',
  kind: 'bfl',
  model: 'flux-2-pro',
  usdMicros: 30_000,
  source: 'reported',
  at: 1,
  day: '2026-12-14',
  ...over,
});

describe('the cost ledger (db/costs.ts)', () => {
  it('sums a provider per day and over a month, exactly, and a job recorded again replaces its cost', () => {
    const { costs } = open();
    costs.recordCost(entry('a', { day: '2026-11-30', usdMicros: 1_000_000 }));
    costs.recordCost(entry('b', { day: '2026-12-01', usdMicros: 100_000 }));
    costs.recordCost(entry('c', { day: '2026-12-14', usdMicros: 200_000, source: 'estimated' }));
    costs.recordCost(entry('d', { day: '2026-12-14', usdMicros: 300_000 }));
    costs.recordCost(entry('e', { day: '2026-12-14', providerId: 'bfl-2', usdMicros: 5_000_000 }));
    costs.recordCost(entry('f', { day: '2027-01-01', usdMicros: 7_000_000 }));
    expect(costs.spentBetween('bfl', '2026-12-01', '2027-01-01')).toBe(600_000);
    expect(costs.dailyTotals('bfl', '2026-12-01', '2027-01-01')).toEqual([
      { day: '2026-12-01', usdMicros: 100_000, jobs: 1 },
      { day: '2026-12-14', usdMicros: 500_000, jobs: 2 },
    ]);
    expect(costs.anyEstimated('bfl', '2026-12-01', '2027-01-01')).toBe(true);
    expect(costs.anyEstimated('bfl', '2026-11-01', '2026-12-01')).toBe(false);
    costs.recordCost(entry('c', { day: '2026-12-14', usdMicros: 250_000, source: 'reported' }));
    expect(costs.spentBetween('bfl', '2026-12-01', '2027-01-01')).toBe(650_000);
    expect(costs.costOf('c')).toMatchObject({ usdMicros: 250_000, source: 'reported' });
    expect(costs.spentBetween('nobody', '2026-12-01', '2027-01-01')).toBe(0);
  });

  it('lists the models costs were recorded for, once each', () => {
    const { costs } = open();
    costs.recordCost(entry('a'));
    costs.recordCost(entry('b'));
    costs.recordCost(entry('c', { kind: 'openai', providerId: 'openai', model: 'gpt-image-1' }));
    expect(costs.modelsUsed()).toEqual([
      { kind: 'bfl', model: 'flux-2-pro' },
      { kind: 'openai', model: 'gpt-image-1' },
    ]);
  });

  it("keeps a purged job's cost: money spent stays spent", () => {
    const store = open();
    const { job } = store.submit({ provider: 'bfl', prompt: 'a fox', width: 1024, height: 1024, count: 1 });
    store.costs.recordCost(entry(job.id));
    store.markCancelled(job.id);
    store.purge([job.id]);
    expect(store.costs.costOf(job.id)?.usdMicros).toBe(30_000);
  });

  it('refuses a malformed day', () => {
    const { costs } = open();
    expect(() => costs.recordCost(entry('a', { day: '2026-1-1' }))).toThrow();
    expect(costs.spentBetween('bfl', '2026-01-01', '2027-01-01')).toBe(0);
  });
});

describe('migration 18 (job_costs)', () => {
  it('an upgraded library keeps its jobs and starts with an empty ledger', () => {
    const dir = tempDir();
    const db = new Database(join(dir, 'atelier.db'));
    migrate(
      db,
      dir,
      () => 1,
      MIGRATIONS.filter((m) => m.version < 18),
    );
    db.prepare(
      `INSERT INTO jobs (id, status, created_at, updated_at, provider, prompt, width, height, count, request_json, search_text)
       VALUES ('old', 'succeeded', 1, 1, 'bfl', 'p', 64, 64, 1, '{}', 'p')`,
    ).run();
    db.close();
    const store = open({ dataDir: dir });
    expect(store.info.schemaVersion).toBeGreaterThanOrEqual(18);
    expect(store.get('old').prompt).toBe('p');
    expect(store.costs.spentBetween('bfl', '0000-01-01', '9999-12-31')).toBe(0);
    store.costs.recordCost(entry('old'));
    expect(store.costs.costOf('old')?.usdMicros).toBe(30_000);
  });
});

/** The ledger's statements over a migrated database, with their SQL kept by name for EXPLAIN QUERY PLAN. */
function ledgerOver(db: Database.Database) {
  const sources = new Map<string, string>();
  const reporter = { thresholdMs: 1e9, onSlow: () => undefined, clock: () => 0 };
  const sql = {
    prepare(name: string, text: string) {
      sources.set(name, text);
      return new Named(name, db.prepare(text), reporter);
    },
  } as unknown as Statements;
  const ctx: StoreContext = { db, sql, now: () => 1, limits: DEFAULT_LIMITS };
  return { access: createCosts(ctx), sources };
}

describe.each(['fresh', 'analysed'] as const)(
  'the ledger reads go down job_costs_provider_day (%s statistics)',
  (kind) => {
    it('per provider per day and per month, never a scan of the table', () => {
      const dir = tempDir();
      const db = new Database(join(dir, 'atelier.db'));
      migrate(db, dir, () => 1);
      const { access, sources } = ledgerOver(db);
      if (kind === 'analysed') {
        // A year of spend over 12 providers, so the statistics describe a real ledger.
        const record = db.transaction(() => {
          for (let i = 0; i < 20_000; i++) {
            const day = `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
            access.writes.recordCost(
              entry(`j${i}`, { providerId: `p${i % 12}`, day, source: i % 3 ? 'reported' : 'estimated' }),
            );
          }
        });
        record();
        db.exec('ANALYZE');
      }
      const args = ['p1', '2026-12-01', '2027-01-01'];
      for (const name of ['costs.spentBetween', 'costs.dailyTotals', 'costs.anyEstimated']) {
        const plan = (
          db.prepare(`EXPLAIN QUERY PLAN ${sources.get(name)!}`).all(...args) as Array<{ detail: string }>
        ).map((r) => r.detail);
        expect(plan.join('\n'), name).toMatch(
          /SEARCH job_costs USING (COVERING )?INDEX job_costs_provider_day \(provider=\? AND day>\? AND day<\?\)/,
        );
        expect(
          plan.filter((line) => line.startsWith('SCAN')),
          name,
        ).toEqual([]);
        expect(
          plan.filter((line) => line.includes('TEMP B-TREE')),
          name,
        ).toEqual([]);
      }
      const models = (
        db.prepare(`EXPLAIN QUERY PLAN ${sources.get('costs.modelsUsed')!}`).all() as Array<{ detail: string }>
      ).map((r) => r.detail);
      // Distinct models come off the (kind, model) index in order: no sort, no table rows read.
      expect(models.join('\n')).toMatch(/COVERING INDEX job_costs_kind_model/);
      expect(models.filter((line) => line.includes('TEMP B-TREE'))).toEqual([]);
      db.close();
    });
  },
);
