import { AppError } from '../../../shared/errors.js';
import type { Deadline } from './deadline.js';
import { notSentCause } from './not-sent.js';

// Failures by kind: what never left is classified in not-sent.ts, HTTP statuses are mapped in status-errors.ts.

/** Who is being called, so every error names the provider and never leaks its secrets. */
export interface CallScope {
  /** Human name used in messages, e.g. "OpenAI". */
  provider: string;
  deadline: Deadline;
  /** Values that must never appear in an error message or its details (API keys, passwords). */
  secrets: string[];
}

/** Where a failure happened relative to the provider taking the work; the worker only retries 'before_accept'. */
export type Phase = 'before_accept' | 'after_send';

const MAX_PROVIDER_TEXT = 500;

/** Removes secrets (and anything after "Bearer ") from text that came from a provider or a URL. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('***');
  }
  out = out.replace(/(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 ***');
  return out.length > MAX_PROVIDER_TEXT ? `${out.slice(0, MAX_PROVIDER_TEXT)}…` : out;
}

/** The deepest `code` on an error or its `cause` chain (undici wraps socket errors in "fetch failed"). */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  let found: string | undefined;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') found = code;
    current = (current as { cause?: unknown }).cause;
  }
  return found;
}

/** A cancelled or timed-out call, worded so a person knows the provider may still have run it. */
export function abortedError(scope: CallScope, sent: boolean): AppError {
  const { provider, deadline } = scope;
  if (deadline.reason === 'timeout') {
    const tail = sent
      ? `The request was already sent, so ${provider} may still have run it; Atelier does not re-send it automatically.`
      : 'Nothing was sent.';
    return new AppError('timeout', `${provider} did not finish within ${formatMs(deadline.timeoutMs)}. ${tail}`, {
      retryable: false,
      details: { phase: sent ? 'after_send' : 'before_accept', timeoutMs: deadline.timeoutMs },
    });
  }
  return new AppError('cancelled', 'Cancelled.', {
    retryable: false,
    details: { phase: sent ? 'after_send' : 'before_accept' },
  });
}

/**
 * Maps a thrown fetch/stream error. An error raised before the request left (blocked port, bad URL or header,
 * DNS failure, refused or reset connect, TLS failure) says nothing was sent, and is retryable when trying again
 * could help; anything else (reset, hang-up mid-request) may have reached the provider and is not.
 */
export function networkError(error: unknown, scope: CallScope, what: string): AppError {
  if (error instanceof AppError) return error;
  if (scope.deadline.reason !== null) return abortedError(scope, true);
  const notSent = notSentCause(error);
  if (notSent !== undefined) {
    return new AppError(
      notSent.code,
      `${notSent.message(scope.provider)} Nothing was sent, so nothing was run or billed.`,
      {
        retryable: notSent.retryable,
        details: {
          phase: 'before_accept',
          sent: false,
          ...(notSent.errno === undefined ? {} : { errno: notSent.errno }),
        },
      },
    );
  }
  return droppedError(scope, what, errorCode(error));
}

/** The connection broke after the request left: never retried, because the provider may have run (and billed) it. */
export function droppedError(scope: CallScope, what: string, code?: string): AppError {
  return new AppError(
    'provider_error',
    `The connection to ${scope.provider} dropped ${what}. ${scope.provider} may still have run the request, so ` +
      `Atelier does not re-send it automatically.`,
    {
      retryable: false,
      details: { phase: 'after_send', dropped: true, ...(code === undefined ? {} : { errno: code }) },
    },
  );
}

export function tooLargeError(scope: CallScope, limitBytes: number, readBytes: number): AppError {
  return new AppError(
    'provider_error',
    `${scope.provider} sent more than ${formatBytes(limitBytes)}, the limit for one response; Atelier stopped ` +
      `reading it.`,
    { retryable: false, details: { phase: 'after_send', limitBytes, readBytes } },
  );
}

export function malformedError(scope: CallScope, what: string, details: Record<string, unknown> = {}): AppError {
  return new AppError('provider_error', `${scope.provider} sent ${what}.`, {
    retryable: false,
    details: { phase: 'after_send', ...details },
  });
}

export function formatMs(ms: number): string {
  return ms < 10_000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
