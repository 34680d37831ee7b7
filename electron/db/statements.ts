import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import type { Db } from './connection.js';

export const DEFAULT_SLOW_QUERY_MS = 40;

export interface SlowQueryReporter {
  thresholdMs: number;
  onSlow: (name: string, ms: number) => void;
  clock: () => number;
}

/** A prepared statement with a name, timed on every call so slow ones are reported by what they do. */
export class Named<Row = unknown> {
  constructor(
    readonly name: string,
    private readonly stmt: Database.Statement,
    private readonly reporter: SlowQueryReporter,
  ) {}

  private timed<T>(fn: () => T): T {
    const start = this.reporter.clock();
    try {
      return fn();
    } finally {
      const ms = this.reporter.clock() - start;
      if (ms > this.reporter.thresholdMs) this.reporter.onSlow(this.name, ms);
    }
  }

  get(...params: unknown[]): Row | undefined {
    return this.timed(() => this.stmt.get(...params) as Row | undefined);
  }

  all(...params: unknown[]): Row[] {
    return this.timed(() => this.stmt.all(...params) as Row[]);
  }

  run(...params: unknown[]): Database.RunResult {
    return this.timed(() => this.stmt.run(...params));
  }

  /** The SQL text, for EXPLAIN QUERY PLAN tests. */
  get source(): string {
    return this.stmt.source;
  }
}

/** Prepares each statement once and caches dynamic shapes (list filters) by their key. */
export class Statements {
  private readonly cache = new Map<string, Named<unknown>>();

  constructor(
    readonly db: Db,
    readonly reporter: SlowQueryReporter,
  ) {}

  prepare<Row = unknown>(name: string, sql: string): Named<Row> {
    return new Named<Row>(name, this.db.prepare(sql), this.reporter);
  }

  /**
   * Prepared on first use, then reused: the set of shapes is small and fixed by the filters' combinations.
   * `raw` statements return each row as an array of values (far cheaper to build than an object per row).
   */
  cached<Row = unknown>(name: string, key: string, build: () => string, options: { raw?: boolean } = {}): Named<Row> {
    const cacheKey = options.raw === true ? `raw:${key}` : key;
    const hit = this.cache.get(cacheKey);
    if (hit !== undefined) return hit as Named<Row>;
    const stmt = this.db.prepare(build());
    if (options.raw === true) stmt.raw(true);
    const made = new Named<Row>(name, stmt, this.reporter);
    // Typed queries add shapes as people type (IN lists of any length): the oldest go past a few hundred.
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(cacheKey, made as Named<unknown>);
    return made;
  }

  /** Times a whole operation (e.g. a transaction) under one name. */
  time<T>(name: string, fn: () => T): T {
    const start = this.reporter.clock();
    try {
      return fn();
    } finally {
      const ms = this.reporter.clock() - start;
      if (ms > this.reporter.thresholdMs) this.reporter.onSlow(name, ms);
    }
  }
}

const MAX_CACHED = 512;

export function defaultClock(): number {
  return performance.now();
}
