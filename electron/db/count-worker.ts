/**
 * The thread that counts matches (count-pool.ts): its own read-only connection to the library, so a count over a
 * million rows never holds the main process (WAL lets it read beside the writer). Run from TypeScript source through
 * tsx, or built as dist/electron/count-worker.cjs.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { registerModelUsageBest } from './model-usage-best.js';

export interface CountWorkerData {
  path: string;
  nativeBinding?: string;
}

export interface CountStatement {
  sql: string;
  params: unknown[];
}

/** `rows`: each statement's rows as arrays of columns (the model library's usage), not one number. */
export type CountRequest = { id: number; statements: CountStatement[]; rows?: true };
/** `thread`: the id of the thread that counted (never the main thread's, 0). */
export type CountReply =
  | { id: number; counts: number[]; thread: number }
  | { id: number; rows: unknown[][][]; thread: number }
  | { id: number; error: string };

/** Statements kept prepared: a few shapes of query repeat as a person types. */
const PREPARED_MAX = 64;

const data = workerData as CountWorkerData;
const port = parentPort;
if (port !== null && data !== null && typeof data === 'object' && typeof data.path === 'string') {
  const db = new Database(data.path, {
    readonly: true,
    fileMustExist: true,
    ...(data.nativeBinding === undefined ? {} : { nativeBinding: data.nativeBinding }),
  });
  db.pragma('busy_timeout = 5000');
  registerModelUsageBest(db);
  const prepared = new Map<string, Database.Statement>();
  const statement = (sql: string, rows: boolean): Database.Statement => {
    const key = `${rows ? 'rows' : 'one'}:${sql}`;
    let stmt = prepared.get(key);
    if (stmt === undefined) {
      if (prepared.size >= PREPARED_MAX) prepared.delete(prepared.keys().next().value!);
      stmt = rows ? db.prepare(sql).raw() : db.prepare(sql).pluck();
      prepared.set(key, stmt);
    }
    return stmt;
  };
  port.on('message', ({ id, statements, rows }: CountRequest) => {
    try {
      // One read transaction: the figures of one answer come from one snapshot of the library.
      if (rows === true) {
        const all = db.transaction(() =>
          statements.map((s) => statement(s.sql, true).all(...s.params) as unknown[][]),
        )();
        port.postMessage({ id, rows: all, thread: threadId } satisfies CountReply);
        return;
      }
      const counts = db.transaction(() => statements.map((s) => Number(statement(s.sql, false).get(...s.params))))();
      port.postMessage({ id, counts, thread: threadId } satisfies CountReply);
    } catch (error) {
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies CountReply);
    }
  });
  port.on('close', () => db.close());
}
