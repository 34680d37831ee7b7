import { SHUTDOWN_REASON } from '../types.js';

/**
 * One provider call's abort signal: fires on the caller's cancel or when the timeout elapses, and remembers which
 * came first so the error says "cancelled" or "timed out" truthfully.
 */
export class Deadline {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onOuterAbort: () => void;
  private firstReason: 'cancel' | 'timeout' | null = null;

  constructor(
    private readonly outer: AbortSignal,
    timeoutMs: number,
  ) {
    this.timeoutMs = timeoutMs;
    this.signal = this.controller.signal;
    this.onOuterAbort = () => this.fire('cancel');
    if (outer.aborted) this.fire('cancel');
    else outer.addEventListener('abort', this.onOuterAbort, { once: true });
    this.timer = setTimeout(() => this.fire('timeout'), timeoutMs);
    // A pending deadline must not keep a short-lived process (tests, CLI) alive on its own.
    this.timer.unref();
  }

  /** 'cancel' or 'timeout' once the signal fired, otherwise null. */
  get reason(): 'cancel' | 'timeout' | null {
    return this.firstReason;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.outer.removeEventListener('abort', this.onOuterAbort);
  }

  private fire(reason: 'cancel' | 'timeout'): void {
    if (this.firstReason !== null) return;
    this.firstReason = reason;
    clearTimeout(this.timer);
    const error = new DOMException(reason === 'cancel' ? 'Cancelled' : 'Timed out', 'AbortError');
    // Quitting is not a cancel: providers/types.ts isShutdown reads this through the deadline's own signal.
    if (reason === 'cancel' && this.outer.reason === SHUTDOWN_REASON) Object.assign(error, { shutdown: true });
    this.controller.abort(error);
  }
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
