import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../../shared/errors.js';
import type { Scene } from './scene.js';

export interface RenderTask {
  width: number;
  height: number;
  scene: Scene;
  /** A source image of this size to blend the scene into (image-to-image, masked edit). */
  base?: RenderBase;
}

export interface RenderBase {
  /** width × height × 3 RGB bytes. */
  pixels: Uint8Array;
  /** width × height bytes; 255 repaints fully, 0 keeps the source byte for byte. */
  mask?: Uint8Array;
  /** 0 keeps the source, 1 is the scene alone. */
  strength: number;
}

export interface RenderCallbacks {
  signal: AbortSignal;
  /** Rows finished so far, called between bands. */
  onRows?(rows: number): void;
}

type WorkerMessage =
  | { type: 'progress'; taskId: number; rows: number }
  | { type: 'done'; taskId: number; pixels: ArrayBuffer }
  | { type: 'aborted'; taskId: number }
  | { type: 'error'; taskId: number; message: string };

interface Slot {
  worker: Worker;
  /** Holds the id of the task to abort; the worker checks it between row bands. */
  abortWord: Int32Array;
  current: Running | null;
}

interface Running {
  taskId: number;
  queued: Queued;
  /** Set once the caller was answered (e.g. cancelled) while the worker is still winding down. */
  settled: boolean;
  killTimer?: NodeJS.Timeout;
}

interface Queued {
  task: RenderTask;
  callbacks: RenderCallbacks;
  resolve(pixels: Uint8Array): void;
  reject(error: unknown): void;
  /** Removes the abort listener once the task is over (one job's signal serves many renders). */
  detach(): void;
}

/**
 * The worker script. From TS source (vitest, tsx) or an ESM bundle, import.meta.url is this module's URL; a CJS
 * bundle (esbuild sets import.meta to {}) falls back to the bundle's own file, next to which the build copies
 * render-worker.mjs. `workerUrl` overrides both.
 */
export function defaultWorkerUrl(): URL {
  const here = typeof import.meta.url === 'string' ? import.meta.url : pathToFileURL(__filename).href;
  return new URL('./render-worker.mjs', here);
}

/** If a worker does not acknowledge an abort within this, it is terminated and replaced. */
const ABORT_GRACE_MS = 250;

export function cancelledError(): AppError {
  return new AppError('cancelled', 'The render was cancelled.', { retryable: false });
}

export interface RenderPoolOptions {
  size?: number;
  workerUrl?: URL;
}

/** A small pool of render workers (cores - 1, at least 1), started lazily; `close()` terminates them all. */
export class RenderPool {
  private readonly size: number;
  private readonly workerUrl: URL;
  private readonly slots: Slot[] = [];
  private readonly queue: Queued[] = [];
  private nextTaskId = 1;
  private closed = false;

  constructor(options: RenderPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? availableParallelism() - 1);
    this.workerUrl = options.workerUrl ?? defaultWorkerUrl();
  }

  render(task: RenderTask, callbacks: RenderCallbacks): Promise<Uint8Array> {
    if (this.closed) return Promise.reject(new AppError('internal', 'The built-in generator has been shut down.'));
    if (callbacks.signal.aborted) return Promise.reject(cancelledError());
    const { signal } = callbacks;
    return new Promise<Uint8Array>((resolve, reject) => {
      const onAbort = () => this.abort(queued);
      const queued: Queued = {
        task,
        callbacks,
        resolve,
        reject,
        detach: () => signal.removeEventListener('abort', onAbort),
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.queue.push(queued);
      this.pump();
    });
  }

  /** Workers started so far (for tests and diagnostics). */
  get workerCount(): number {
    return this.slots.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const queued of this.queue.splice(0)) {
      queued.detach();
      queued.reject(cancelledError());
    }
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      if (slot.current !== null) this.finish(slot, (r) => r.queued.reject(cancelledError()));
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private spawn(): Slot {
    const abortWord = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(this.workerUrl, { workerData: { abort: abortWord.buffer } });
    // An idle pool must not keep the process alive; close() is still the proper way out.
    worker.unref();
    const slot: Slot = { worker, abortWord, current: null };
    worker.on('message', (message: WorkerMessage) => this.onMessage(slot, message));
    worker.on('error', (error) => this.onCrash(slot, error));
    worker.on('exit', (code) => this.onCrash(slot, new Error(`render worker exited with code ${code}`)));
    this.slots.push(slot);
    return slot;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.current === null);
      if (slot === undefined && this.slots.length < this.size) slot = this.spawn();
      if (slot === undefined) return;
      this.start(slot, this.queue.shift()!);
    }
  }

  private start(slot: Slot, queued: Queued): void {
    const taskId = this.nextTaskId;
    this.nextTaskId = (this.nextTaskId % 0x7ffffffe) + 1;
    const running: Running = { taskId, queued, settled: false };
    slot.current = running;
    const { width, height, scene, base } = queued.task;
    slot.worker.postMessage({ type: 'render', taskId, width, height, scene, ...(base === undefined ? {} : { base }) });
  }

  private abort(queued: Queued): void {
    const at = this.queue.indexOf(queued);
    if (at >= 0) {
      this.queue.splice(at, 1);
      queued.detach();
      queued.reject(cancelledError());
      return;
    }
    const slot = this.slots.find((s) => s.current?.queued === queued);
    const running = slot?.current;
    if (slot === undefined || running === null || running === undefined || running.settled) return;
    Atomics.store(slot.abortWord, 0, running.taskId);
    // Answer the caller now; the slot frees itself when the worker acknowledges (or is replaced).
    running.settled = true;
    queued.reject(cancelledError());
    running.killTimer = setTimeout(() => {
      if (slot.current === running) this.replace(slot);
    }, ABORT_GRACE_MS);
  }

  private finish(slot: Slot, answer: (running: Running) => void): void {
    const running = slot.current;
    if (running === null) return;
    slot.current = null;
    running.queued.detach();
    if (running.killTimer !== undefined) clearTimeout(running.killTimer);
    if (!running.settled) {
      running.settled = true;
      answer(running);
    }
  }

  private onMessage(slot: Slot, message: WorkerMessage): void {
    const running = slot.current;
    if (running === null || message.taskId !== running.taskId) return;
    switch (message.type) {
      case 'progress':
        if (!running.settled) running.queued.callbacks.onRows?.(message.rows);
        return;
      case 'done':
        this.finish(slot, (r) => r.queued.resolve(new Uint8Array(message.pixels)));
        break;
      case 'aborted':
        this.finish(slot, (r) => r.queued.reject(cancelledError()));
        break;
      case 'error':
        this.finish(slot, (r) =>
          r.queued.reject(new AppError('internal', `The built-in generator failed: ${message.message}`)),
        );
        break;
    }
    this.pump();
  }

  private onCrash(slot: Slot, error: Error): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    this.finish(slot, (r) =>
      r.queued.reject(new AppError('internal', `The built-in generator stopped: ${error.message}`, { cause: error })),
    );
    if (!this.closed) this.pump();
  }

  /** Terminates a worker that did not stop in time; a fresh one takes its place on the next task. */
  private replace(slot: Slot): void {
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    this.finish(slot, (r) => r.queued.reject(cancelledError()));
    void slot.worker.terminate();
    this.pump();
  }
}
