/**
 * `--statements`: where the store's synchronous time goes during the import. Wraps every named prepared statement
 * (electron/db/statements.ts) to sum its wall time per name; a diagnostic for the bench only, never the app.
 */
import { performance } from 'node:perf_hooks';
import { Named } from '../../electron/db/statements.js';

export interface StatementTimes {
  report(top: number): string;
  restore(): void;
}

type Method = 'get' | 'all' | 'run';

export function timeStatements(): StatementTimes {
  const totals = new Map<string, { calls: number; ms: number; max: number }>();
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
        const ms = performance.now() - t0;
        const entry = totals.get(this.name) ?? { calls: 0, ms: 0, max: 0 };
        entry.calls += 1;
        entry.ms += ms;
        entry.max = Math.max(entry.max, ms);
        totals.set(this.name, entry);
      }
    };
  }
  return {
    report(top) {
      const all = [...totals].sort((a, b) => b[1].ms - a[1].ms);
      const sum = all.reduce((n, [, e]) => n + e.ms, 0);
      const lines = all.slice(0, top).map(([name, e]) => `| ${name} | ${e.calls.toLocaleString('en')} | ${e.ms.toFixed(0)} | ${((100 * e.ms) / sum).toFixed(1)}% | ${(e.ms / e.calls).toFixed(3)} | ${e.max.toFixed(1)} |`);
      return [`store statements, ${sum.toFixed(0)} ms in all:`, '| statement | calls | ms | share | ms/call | max ms |', '| --- | ---: | ---: | ---: | ---: | ---: |', ...lines].join('\n');
    },
    restore() {
      for (const [method, original] of originals) proto[method] = original;
    },
  };
}
