import { AppError } from '../../shared/errors.js';

export interface RetryPolicy {
  /** Total attempts including the first. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 30_000 };

/**
 * Only errors the provider marked retryable are retried: connection refused, 429 and 503 before it accepted
 * the work. Anything after acceptance is ambiguous (it may have been billed) and is never re-sent on its own.
 */
export function shouldRetry(error: unknown, attempt: number, accepted: boolean, policy: RetryPolicy): boolean {
  if (accepted || attempt >= policy.maxAttempts) return false;
  return error instanceof AppError && error.retryable && error.details?.['phase'] !== 'after_accept';
}

/** Exponential backoff with full jitter, never shorter than what the provider asked for (Retry-After). */
export function retryDelayMs(
  error: unknown,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = Math.round(exponential / 2 + random() * (exponential / 2));
  const asked = error instanceof AppError ? Number(error.details?.['retryAfterMs'] ?? 0) : 0;
  const honoured = Number.isFinite(asked) && asked > 0 ? Math.min(asked, policy.maxDelayMs * 4) : 0;
  return Math.max(jittered, honoured);
}

/** Resolves after `ms`, or rejects with `cancelled` as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new AppError('cancelled', 'The job was cancelled.'));
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AppError('cancelled', 'The job was cancelled.'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
