/**
 * The thread that counts matches (count-pool.ts): its own read-only connection to the library, so a count over a
 * million rows never holds the main process (WAL lets it read beside the writer). Run from TypeScript source through
 * tsx, or built as dist/electron/count-worker.cjs.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

export interface CountWorkerData {
  path: string;
  nativeBinding?: string;
}

export interface CountStatement {
  sql: string;
  params: unknown[];
}

export type CountRequest = { id: number; statements: CountStatement[] };
/** `thread`: the id of the thread that counted (never the main thread's, 0). */
export type CountReply = { id: number; counts: number[]; thread: number } | { id: number; error: string };

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
  const prepared = new Map<string, Database.Statement>();
  const statement = (sql: string): Database.Statement => {
    let stmt = prepared.get(sql);
    if (stmt === undefined) {
      if (prepared.size >= PREPARED_MAX) prepared.delete(prepared.keys().next().value!);
      stmt = db.prepare(sql).pluck();
      prepared.set(sql, stmt);
    }
    return stmt;
  };
  port.on('message', ({ id, statements }: CountRequest) => {
    try {
      // One read transaction: the figures of one answer come from one snapshot of the library.
      const counts = db.transaction(() => statements.map((s) => Number(statement(s.sql).get(...s.params))))();
      port.postMessage({ id, counts, thread: threadId } satisfies CountReply);
    } catch (error) {
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies CountReply);
    }
  });
  port.on('close', () => db.close());
}
