import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReadImageOptions } from './read-image.js';
import type { ImageRead } from './types.js';

/** An image's settings, and its bytes: they may have travelled to the reader's thread and back, so use these after. */
export interface MetadataRead {
  read: ImageRead;
  bytes: Uint8Array;
}

/** Reads an image's settings; the pool's reader runs on a worker thread within a time limit. */
export type MetadataReader = (bytes: Uint8Array, options?: ReadImageOptions) => Promise<MetadataRead>;

/** A file whose settings could not be read (too slow, too large, or Atelier is closing): the message is the reason. */
export class MetadataReadFailed extends Error {
  readonly code: string;
  constructor(code: 'timeout' | 'memory' | 'crashed' | 'closing', message: string) {
    super(message);
    this.name = 'MetadataReadFailed';
    this.code = code;
  }
}

/** Linear readers take milliseconds even on megabytes of text; a file that takes this long was built to stall one. */
export const METADATA_TIME_LIMIT_MS = 10_000;
/** A reader's heap: plenty for a 4 MB text parsed a few times over, and a file that wants more fails alone. */
const WORKER_HEAP_MB = 512;

/**
 * The worker script: its TypeScript source under vitest and tsx (loaded with tsx), else the bundle the build puts
 * next to main.cjs and serve.mjs (a CJS bundle has no import.meta.url: its own file stands in).
 */
export function defaultWorkerUrl(): URL {
  const here = typeof import.meta.url === 'string' ? import.meta.url : pathToFileURL(__filename).href;
  return new URL(here.endsWith('.ts') ? './metadata-worker.ts' : './metadata-worker.cjs', here);
}

/**
 * A worker from TypeScript source loads it through tsx's require hook: Node 20 ignores `--import` in a worker's
 * execArgv, and its ESM hooks do not reach worker threads.
 */
const FROM_SOURCE = `
const { workerData } = require('node:worker_threads');
require(workerData.tsx).register();
require(workerData.entry);
`;

/** Resolved only when running from source: the built app has no tsx, and needs none. */
function tsxRegister(): string {
  return createRequire(import.meta.url).resolve('tsx/cjs/api');
}

export interface MetadataPoolOptions {
  size?: number;
  timeLimitMs?: number;
  workerUrl?: URL;
}

interface Task {
  bytes: Uint8Array;
  options: ReadImageOptions;
  resolve(result: MetadataRead): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  running?: { id: number; task: Task; timer: NodeJS.Timeout } | undefined;
}

/** `buffer` is the file's own, handed back when it was handed over. */
type Reply = { id: number; read: ImageRead; buffer?: ArrayBuffer } | { id: number; error: string };

/**
 * A view of a whole ArrayBuffer can be handed to the thread and back instead of copied: a copy of a 200 MB file held
 * the event loop half a second. Views into a larger buffer (Node's pool) are copied.
 */
function wholeBuffer(bytes: Uint8Array): ArrayBuffer | undefined {
  const buffer = bytes.buffer;
  return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength
    ? buffer
    : undefined;
}

const closing = (): MetadataReadFailed => new MetadataReadFailed('closing', 'Atelier is closing.');

/** Why a worker that stopped did, in words for the file it was reading. */
function stoppedReason(error: Error): MetadataReadFailed {
  if ((error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new MetadataReadFailed(
      'memory',
      'Its settings could not be read: they take more memory than one file may use.',
    );
  }
  return new MetadataReadFailed('crashed', `Its settings could not be read: the reader stopped (${error.message}).`);
}

/**
 * Threads that read images' settings, one file each at a time, started on first use. A file that takes longer than
 * the time limit has its thread terminated and replaced, and fails with that reason; other files go on.
 */
export function createMetadataPool(options: MetadataPoolOptions = {}) {
  const size = Math.max(1, options.size ?? Math.min(2, availableParallelism() - 1));
  const timeLimitMs = options.timeLimitMs ?? METADATA_TIME_LIMIT_MS;
  const workerUrl = options.workerUrl ?? defaultWorkerUrl();
  const slots: Slot[] = [];
  const queue: Task[] = [];
  let nextId = 0;
  let closed = false;

  /** Takes the slot out of the pool, fails what it held; a fresh thread takes its place when there is work. */
  const drop = (slot: Slot, error: MetadataReadFailed): void => {
    const at = slots.indexOf(slot);
    if (at < 0) return;
    slots.splice(at, 1);
    const running = slot.running;
    slot.running = undefined;
    if (running !== undefined) {
      clearTimeout(running.timer);
      running.task.reject(error);
    }
    void slot.worker.terminate();
    pump();
  };

  const spawn = (): Slot => {
    const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB };
    const worker = workerUrl.pathname.endsWith('.ts')
      ? new Worker(FROM_SOURCE, {
          eval: true,
          workerData: { entry: fileURLToPath(workerUrl), tsx: tsxRegister() },
          resourceLimits,
        })
      : new Worker(workerUrl, { resourceLimits });
    const slot: Slot = { worker };
    // Only a thread at work keeps the process alive.
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const running = slot.running;
      if (running === undefined || running.id !== reply.id) return;
      clearTimeout(running.timer);
      slot.running = undefined;
      worker.unref();
      if ('read' in reply)
        running.task.resolve({
          read: reply.read,
          bytes: reply.buffer === undefined ? running.task.bytes : new Uint8Array(reply.buffer),
        });
      else running.task.reject(new MetadataReadFailed('crashed', `Its settings could not be read: ${reply.error}`));
      pump();
    });
    worker.on('error', (error) => drop(slot, stoppedReason(error)));
    worker.on('exit', (code) => drop(slot, stoppedReason(new Error(`exit code ${code}`))));
    slots.push(slot);
    return slot;
  };

  const start = (slot: Slot, task: Task): void => {
    const id = (nextId += 1);
    const timer = setTimeout(() => {
      drop(
        slot,
        new MetadataReadFailed('timeout', `Its settings could not be read in time (over ${timeLimitMs / 1000} s).`),
      );
    }, timeLimitMs);
    timer.unref();
    slot.running = { id, task, timer };
    slot.worker.ref();
    const buffer = wholeBuffer(task.bytes);
    try {
      slot.worker.postMessage(
        { id, bytes: task.bytes, options: task.options, handBack: buffer !== undefined },
        buffer === undefined ? [] : [buffer],
      );
    } catch {
      // A buffer Node will not let go of (marked untransferable) is copied instead.
      slot.worker.postMessage({ id, bytes: task.bytes, options: task.options, handBack: false });
    }
  };

  function pump(): void {
    while (!closed && queue.length > 0) {
      const slot = slots.find((s) => s.running === undefined) ?? (slots.length < size ? spawn() : undefined);
      if (slot === undefined) return;
      start(slot, queue.shift()!);
    }
  }

  const read: MetadataReader = (bytes, readOptions = {}) => {
    if (closed) return Promise.reject(closing());
    return new Promise<MetadataRead>((resolve, reject) => {
      queue.push({ bytes, options: readOptions, resolve, reject });
      pump();
    });
  };

  return {
    read,
    /** Threads started so far (for tests). */
    get workerCount(): number {
      return slots.length;
    },
    async close(): Promise<void> {
      closed = true;
      for (const task of queue.splice(0)) task.reject(closing());
      const all = slots.splice(0);
      for (const slot of all) {
        if (slot.running === undefined) continue;
        clearTimeout(slot.running.timer);
        slot.running.task.reject(closing());
        slot.running = undefined;
      }
      await Promise.all(all.map((slot) => slot.worker.terminate()));
    },
  };
}

export type MetadataPool = ReturnType<typeof createMetadataPool>;
