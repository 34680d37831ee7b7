import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CountReply, CountStatement, CountWorkerData } from './count-worker.js';

/**
 * The worker script: its TypeScript source under vitest and tsx (loaded with tsx), else the bundle the build puts
 * next to main.cjs and serve.mjs (a CJS bundle has no import.meta.url: its own file stands in).
 */
export function defaultCountWorkerUrl(): URL {
  const here = typeof import.meta.url === 'string' ? import.meta.url : pathToFileURL(__filename).href;
  return new URL(here.endsWith('.ts') ? './count-worker.ts' : './count-worker.cjs', here);
}

/** From source, through tsx's require hook (as metadata-pool.ts: Node ignores `--import` in a worker). */
const FROM_SOURCE = `
const { workerData } = require('node:worker_threads');
require(workerData.tsx).register();
require(workerData.entry);
`;

/** Answers kept for queries asked again at the same library version (switching tabs, typing back). */
const CACHE_SIZE = 256;

export interface CountPoolOptions {
  /** The library database (atelier.db). */
  path: string;
  nativeBinding?: string;
  workerUrl?: URL;
}

export interface CountPool {
  /**
   * The statements' single numbers, counted on the pool's thread. `version` names the library's state (it changes
   * with every write): the same statements at the same version are answered from the cache.
   */
  count(statements: CountStatement[], version: number): Promise<number[]>;
  /** Each statement's rows (arrays of columns), read on the pool's thread and cached by version like counts. */
  rows(statements: CountStatement[], version: number): Promise<unknown[][][]>;
  /** Answers read from SQLite, and the id of the thread that read the last one (never the main thread's). */
  stats(): { counted: number; lastThread: number | null };
  close(): Promise<void>;
}

interface Pending {
  statements: CountStatement[];
  rows?: true;
  resolve(answer: number[] | unknown[][][]): void;
  reject(error: Error): void;
}

/**
 * One counting thread with its own read-only connection, started on first use; requests wait their turn. A thread
 * that stops fails what it held, and a fresh one takes the next request.
 */
export function createCountPool(options: CountPoolOptions): CountPool {
  const workerUrl = options.workerUrl ?? defaultCountWorkerUrl();
  let worker: Worker | null = null;
  let running: { id: number; task: Pending } | null = null;
  const queue: Pending[] = [];
  const cache = new Map<string, { version: number; counts: number[] | unknown[][][] }>();
  const inFlight = new Map<string, { version: number; answer: Promise<number[] | unknown[][][]> }>();
  let nextId = 0;
  let last: number | null = null;
  let counted = 0;
  let closed = false;

  const fail = (error: Error): void => {
    const task = running?.task;
    running = null;
    worker = null;
    task?.reject(error);
    pump();
  };

  function spawn(): Worker {
    const workerData: CountWorkerData = {
      path: options.path,
      ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
    };
    const w = workerUrl.pathname.endsWith('.ts')
      ? new Worker(FROM_SOURCE, {
          eval: true,
          workerData: {
            ...workerData,
            entry: fileURLToPath(workerUrl),
            tsx: createRequire(import.meta.url).resolve('tsx/cjs/api'),
          },
        })
      : new Worker(workerUrl, { workerData });
    // Only a thread at work keeps the process alive.
    w.unref();
    w.on('message', (reply: CountReply) => {
      if (running === null || running.id !== reply.id) return;
      const { task } = running;
      running = null;
      w.unref();
      if ('error' in reply) task.reject(new Error(`Could not count the matches: ${reply.error}`));
      else {
        last = reply.thread;
        counted += 1;
        task.resolve('counts' in reply ? reply.counts : reply.rows);
      }
      pump();
    });
    w.on('error', (error) => {
      if (worker === w) fail(error);
    });
    w.on('exit', (code) => {
      if (worker === w) fail(new Error(`The counting thread stopped (exit code ${code}).`));
    });
    return w;
  }

  function pump(): void {
    if (closed || running !== null || queue.length === 0) return;
    worker ??= spawn();
    const task = queue.shift()!;
    const id = (nextId += 1);
    running = { id, task };
    worker.ref();
    worker.postMessage({ id, statements: task.statements, ...(task.rows ? { rows: true } : {}) });
  }

  // Counts and rows share the thread, the queue and the cache (their keys apart).
  const ask = (statements: CountStatement[], version: number, rows: boolean): Promise<number[] | unknown[][][]> => {
    if (closed) return Promise.reject(new Error('Atelier is closing.'));
    const key = `${rows ? 'rows' : 'count'}:${JSON.stringify(statements)}`;
    const hit = cache.get(key);
    if (hit !== undefined && hit.version === version) {
      // Most recently used last: the oldest entry is the first to go.
      cache.delete(key);
      cache.set(key, hit);
      return Promise.resolve(hit.counts);
    }
    const asked = inFlight.get(key);
    if (asked !== undefined && asked.version === version) return asked.answer;
    const answer = new Promise<number[] | unknown[][][]>((resolve, reject) => {
      queue.push({ statements, ...(rows ? { rows: true as const } : {}), resolve, reject });
      pump();
    });
    inFlight.set(key, { version, answer });
    const settle = () => {
      if (inFlight.get(key)?.answer === answer) inFlight.delete(key);
    };
    answer.then((counts) => {
      settle();
      cache.delete(key);
      cache.set(key, { version, counts });
      if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }, settle);
    return answer;
  };

  return {
    count: (statements, version) => ask(statements, version, false) as Promise<number[]>,
    rows: (statements, version) => ask(statements, version, true) as Promise<unknown[][][]>,
    stats: () => ({ counted, lastThread: last }),
    async close() {
      closed = true;
      for (const task of queue.splice(0)) task.reject(new Error('Atelier is closing.'));
      running?.task.reject(new Error('Atelier is closing.'));
      running = null;
      const w = worker;
      worker = null;
      if (w !== null) await w.terminate();
    },
  };
}
