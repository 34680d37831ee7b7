/** Error codes every host and the renderer understand; the set is part of the public contract. */
export const ERROR_CODES = [
  'invalid_request',
  'not_found',
  'conflict',
  'overloaded',
  'provider_unavailable',
  'provider_auth',
  'provider_rate_limited',
  'provider_rejected',
  'provider_error',
  'timeout',
  'cancelled',
  'interrupted',
  'storage',
  'desktop_only',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  details?: Record<string, unknown>;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorBody };

/** Codes that are worth retrying by default unless a producer says otherwise. */
const RETRYABLE_BY_DEFAULT: ReadonlySet<ErrorCode> = new Set([
  'overloaded',
  'provider_unavailable',
  'provider_rate_limited',
]);

/** A typed error that crosses every boundary as an ErrorBody and is rethrown as itself on the other side. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { retryable?: boolean; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.retryable = options.retryable ?? RETRYABLE_BY_DEFAULT.has(code);
    if (options.details !== undefined) this.details = options.details;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message, retryable: this.retryable };
    if (this.details !== undefined) body.details = this.details;
    return body;
  }

  static fromBody(body: ErrorBody): AppError {
    return new AppError(body.code, body.message, {
      retryable: body.retryable,
      ...(body.details === undefined ? {} : { details: body.details }),
    });
  }
}

/** Any thrown value as an ErrorBody; unknown errors become `internal` without leaking their stack. */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof AppError) return error.toBody();
  return { code: 'internal', message: 'Something went wrong inside Atelier.', retryable: false };
}

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail(error: unknown): Result<never> {
  return { ok: false, error: toErrorBody(error) };
}

/** Unwraps a Result, rethrowing a failure as a typed AppError. */
export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw AppError.fromBody(result.error);
}
