import { AppError } from '../../../shared/errors.js';
import { type CallScope, redact } from './errors.js';

/** Milliseconds to wait from `retry-after-ms` (float ms) or `retry-after` (seconds or an HTTP date). */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(after)) return Math.round(Number(after) * 1000);
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

export interface StatusErrorInput {
  status: number;
  headers: Headers;
  /** The provider's own message, already extracted from its error body. */
  providerMessage?: string | undefined;
  providerCode?: string | undefined;
  providerType?: string | undefined;
  /** Replaces the generic message for this status when the provider said something more specific. */
  message?: string | undefined;
}

/**
 * The generic status → code mapping shared by every HTTP provider:
 * 401/403 auth, 429 rate limited (retryable), 503 unavailable (retryable, not accepted), other 4xx rejected,
 * other 5xx provider_error. Only 429 and 503 are retryable: the provider said it did not take the work.
 */
export function statusError(input: StatusErrorInput, scope: CallScope): AppError {
  const { status, headers } = input;
  const said = input.providerMessage === undefined ? '' : redact(input.providerMessage, scope.secrets);
  const details: Record<string, unknown> = { status };
  if (input.providerCode !== undefined) details.providerCode = input.providerCode;
  if (input.providerType !== undefined) details.providerType = input.providerType;
  if (said !== '') details.providerMessage = said;
  const requestId = headers.get('x-request-id');
  if (requestId !== null) details.requestId = requestId;
  const suffix = said === '' ? '' : ` ${scope.provider} said: "${said}"`;
  const p = scope.provider;

  if (status < 400) {
    return new AppError(
      'provider_error',
      `${p} answered with a redirect (HTTP ${status}); set its address to the final URL.`,
      {
        retryable: false,
        details: { ...details, phase: 'before_accept', location: redact(headers.get('location') ?? '', scope.secrets) },
      },
    );
  }
  if (status === 401 || status === 403) {
    const base =
      status === 401
        ? `${p} did not accept the credentials (HTTP 401). Check the key or password in settings.`
        : `${p} refused access (HTTP 403).`;
    return new AppError('provider_auth', (input.message ?? base) + suffix, {
      retryable: false,
      details: { ...details, phase: 'before_accept' },
    });
  }
  if (status === 429) {
    const wait = retryAfterMs(headers);
    if (wait !== undefined) details.retryAfterMs = wait;
    return new AppError(
      'provider_rate_limited',
      (input.message ?? `${p} is rate limiting requests (HTTP 429).`) + suffix,
      {
        retryable: true,
        details: { ...details, phase: 'before_accept' },
      },
    );
  }
  if (status === 503) {
    const wait = retryAfterMs(headers);
    if (wait !== undefined) details.retryAfterMs = wait;
    return new AppError(
      'provider_unavailable',
      (input.message ?? `${p} is temporarily unavailable (HTTP 503).`) + suffix,
      {
        retryable: true,
        details: { ...details, phase: 'before_accept' },
      },
    );
  }
  if (status >= 400 && status < 500) {
    return new AppError(
      'provider_rejected',
      (input.message ?? `${p} rejected the request (HTTP ${status}).`) + suffix,
      {
        retryable: false,
        details: { ...details, phase: 'before_accept' },
      },
    );
  }
  return new AppError('provider_error', (input.message ?? `${p} failed with HTTP ${status}.`) + suffix, {
    retryable: false,
    details: { ...details, phase: 'after_send' },
  });
}
