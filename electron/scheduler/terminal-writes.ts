import { AppError } from '../../shared/errors.js';
import type { Logger } from '../base/logger.js';

/** How often a job's end that could not be written (a full disk) is tried again. */
export const TERMINAL_RETRY_MS = 5_000;

export interface TerminalWrites {
  /** Keeps a job's final write that the disk refused (`cause`); it is tried again on every flush until it succeeds. */
  defer(jobId: string, write: () => void, cause?: unknown): void;
  /** Tries every deferred write now; returns how many are still waiting. */
  flush(): number;
  pending(): number;
  /** Stops the timer; what is still waiting stays `running` in the database and the next start marks it interrupted. */
  close(): void;
}

/**
 * A job whose end (succeeded, failed, cancelled) could not be recorded is not dropped: its row stays as it was and
 * the write is retried, on a timer and whenever the worker looks for work, until the disk takes it again.
 */
export function createTerminalWrites(options: {
  log?: Logger;
  intervalMs?: number;
  onWritten(jobId: string): void;
  /** A write was refused and kept (the queue shows it waits for the disk). */
  onDeferred?(cause: unknown): void;
}): TerminalWrites {
  const waiting = new Map<string, () => void>();
  let timer: ReturnType<typeof setInterval> | undefined;
  const stopTimer = (): void => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  const flush = (): number => {
    for (const [jobId, write] of [...waiting]) {
      try {
        write();
      } catch (error) {
        if (error instanceof AppError && error.code === 'storage') {
          options.log?.warn('a finished job still cannot be recorded', { jobId, error: String(error) });
          // The disk is still refusing: the rest would fail the same way.
          break;
        }
        // Not the disk (the job was removed meanwhile): waiting will not help, and must not hold up the others.
        options.log?.error('gave up recording a finished job', { jobId, error: String(error) });
        waiting.delete(jobId);
        continue;
      }
      waiting.delete(jobId);
      options.onWritten(jobId);
    }
    if (waiting.size === 0) stopTimer();
    return waiting.size;
  };
  return {
    defer(jobId, write, cause) {
      waiting.set(jobId, write);
      options.log?.error('a finished job could not be recorded; retrying', { jobId });
      options.onDeferred?.(cause);
      if (timer === undefined) {
        timer = setInterval(flush, options.intervalMs ?? TERMINAL_RETRY_MS);
        timer.unref();
      }
    },
    flush,
    pending: () => waiting.size,
    close: stopTimer,
  };
}
