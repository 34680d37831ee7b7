/**
 * `--statements`: where the store's synchronous time goes during the import. Wraps every named prepared statement
 * (electron/db/statements.ts) to sum its wall time per name; a diagnostic for the bench only, never the app.
 */
import { performance } from 'node:perf_hooks';
import { Named, Statements } from '../../electron/db/statements.js';

export interface StatementTimes {
  /** Forgets what was timed so far (the engine's start-up). */
  reset(): void;
  report(top: number): string;
  restore(): void;
}

type Totals = Map<string, { calls: number; ms: number; max: number }>;

function add(totals: Totals, name: string, ms: number): void {
  const entry = totals.get(name) ?? { calls: 0, ms: 0, max: 0 };
  entry.calls += 1;
  entry.ms += ms;
  entry.max = Math.max(entry.max, ms);
  totals.set(name, entry);
}

function table(title: string, totals: Totals, top: number): string {
  const all = [...totals].sort((a, b) => b[1].ms - a[1].ms);
  const sum = all.reduce((n, [, e]) => n + e.ms, 0);
  const lines = all
    .slice(0, top)
    .map(
      ([name, e]) =>
        `| ${name} | ${e.calls.toLocaleString('en')} | ${e.ms.toFixed(0)} | ${((100 * e.ms) / sum).toFixed(1)}% | ${(e.ms / e.calls).toFixed(3)} | ${e.max.toFixed(1)} |`,
    );
  return [
    `${title}, ${sum.toFixed(0)} ms in all:`,
    '| name | calls | ms | share | ms/call | max ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...lines,
  ].join('\n');
}

/** Patches the prototypes, so it times engines already open too. */
type Method = 'get' | 'all' | 'run';

export function timeStatements(): StatementTimes {
  const totals: Totals = new Map();
  const transactions: Totals = new Map();
  const proto = Named.prototype as unknown as Record<Method, (...params: unknown[]) => unknown>;
  const originals = new Map<Method, (...params: unknown[]) => unknown>();
  for (const method of ['get', 'all', 'run'] as const) {
    const original = proto[method]!;
    originals.set(method, original);
    proto[method] = function (this: Named, ...params: unknown[]) {
      const t0 = performance.now();
      try {
        return original.apply(this, params);
      } finally {
        add(totals, this.name, performance.now() - t0);
      }
    };
  }
  // Whole operations the store names with sql.time (a transaction, COMMIT included).
  const statementsProto = Statements.prototype as unknown as { time: <T>(name: string, fn: () => T) => T };
  const originalTime = statementsProto.time;
  statementsProto.time = function <T>(this: Statements, name: string, fn: () => T): T {
    const t0 = performance.now();
    try {
      return originalTime.call(this, name, fn) as T;
    } finally {
      add(transactions, name, performance.now() - t0);
    }
  };
  return {
    reset() {
      totals.clear();
      transactions.clear();
    },
    report(top) {
      return `${table('store operations (sql.time: a whole transaction, COMMIT included)', transactions, 6)}\n\n${table('store statements', totals, top)}`;
    },
    restore() {
      statementsProto.time = originalTime;
      for (const [method, original] of originals) proto[method] = original;
    },
  };
}
