import { AppError } from '../../../shared/errors.js';
import type { Deadline } from './deadline.js';

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

const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const TLS_CODE =
  /^(CERT_|ERR_TLS_|ERR_SSL_|ERR_OSSL_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_(GET|VERIFY)_|HOSTNAME_MISMATCH)/;

/** undici's reasons for refusing a fetch before it opens any connection (the error has a message and no code). */
const REFUSED_BEFORE_CONNECT = new Set([
  'bad port',
  'unknown scheme',
  'URL scheme must be a HTTP(S) scheme',
  'invalid method',
  'local URLs only',
  'blocked',
]);

/** Node's codes for a header or URL it will not put on the wire (thrown while building the request). */
const UNSENDABLE_CODES = new Set([
  'ERR_INVALID_URL',
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
  'ERR_HTTP_INVALID_HEADER_VALUE',
  'ERR_UNESCAPED_CHARACTERS',
]);

/** fetch()'s TypeErrors while building a Request (bad header value, unparsable URL): thrown before any socket. */
const UNSENDABLE_MESSAGE =
  /invalid header value|ByteString|Failed to parse URL|Request cannot be constructed|Invalid URL|is an invalid header/i;

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

interface NotSent {
  code: 'provider_unavailable' | 'invalid_request';
  retryable: boolean;
  errno?: string;
  message(provider: string): string;
}

/** Why the request certainly never left, found anywhere on the error's cause chain; undefined when it may have. */
export function notSentCause(error: unknown): NotSent | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth += 1) {
    const found = classifyLink(current as { code?: unknown; syscall?: unknown; message?: unknown; name?: unknown });
    if (found !== undefined) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function classifyLink(link: {
  code?: unknown;
  syscall?: unknown;
  message?: unknown;
  name?: unknown;
}): NotSent | undefined {
  const code = typeof link.code === 'string' ? link.code : undefined;
  const message = typeof link.message === 'string' ? link.message : '';
  const syscall = typeof link.syscall === 'string' ? link.syscall : undefined;
  if (code !== undefined && (CONNECT_CODES.has(code) || syscall === 'connect' || syscall === 'getaddrinfo')) {
    return {
      code: 'provider_unavailable',
      retryable: true,
      errno: code,
      message: (p) => `Could not reach ${p} (${describeCode(code)}). Is it running and is the address right?`,
    };
  }
  if (code !== undefined && TLS_CODE.test(code)) {
    return {
      code: 'provider_unavailable',
      retryable: false,
      errno: code,
      message: (p) => `Could not open a secure connection to ${p}: its certificate was not accepted (${code}).`,
    };
  }
  // Node's words when the server hangs up during the TLS handshake, before a request byte could be written.
  if (code === 'ECONNRESET' && /before secure TLS connection was established/.test(message)) {
    return {
      code: 'provider_unavailable',
      retryable: true,
      errno: code,
      message: (p) =>
        `Could not open a secure connection to ${p}: it closed the connection during the TLS handshake. Is it serving https on that port?`,
    };
  }
  if (code === undefined && REFUSED_BEFORE_CONNECT.has(message)) {
    if (message === 'bad port') {
      return {
        code: 'provider_unavailable',
        retryable: false,
        message: (p) =>
          `Could not reach ${p}: its port is one that Node refuses to connect to for safety (a "bad port", such as 9, 25 or 6000). Use another port.`,
      };
    }
    return {
      code: 'provider_unavailable',
      retryable: false,
      message: (p) => `Could not reach ${p}: the request was refused before connecting (${message}).`,
    };
  }
  if (
    (code !== undefined && UNSENDABLE_CODES.has(code)) ||
    (code === undefined && link.name === 'TypeError' && UNSENDABLE_MESSAGE.test(message))
  ) {
    // The raw message can quote the header value (a key), so it is never repeated.
    const header = /header|ByteString|ERR_INVALID_CHAR|HTTP_TOKEN/i.test(`${code ?? ''} ${message}`);
    return {
      code: 'invalid_request',
      retryable: false,
      ...(code === undefined ? {} : { errno: code }),
      message: (p) =>
        header
          ? `Atelier could not send the request to ${p}: a header value (the API key, user name or password) has characters HTTP does not allow, such as a line break or a non-Latin letter. Check them in Settings.`
          : `Atelier could not send the request to ${p}: its address is not a valid URL.`,
    };
  }
  return undefined;
}

/** The connection broke after the request left: never retried, because the provider may have run (and billed) it. */
export function droppedError(scope: CallScope, what: string, code?: string): AppError {
  return new AppError(
    'provider_error',
    `The connection to ${scope.provider} dropped ${what}. ${scope.provider} may still have run the request, so Atelier does not re-send it automatically.`,
    { retryable: false, details: { phase: 'after_send', ...(code === undefined ? {} : { errno: code }) } },
  );
}

export function tooLargeError(scope: CallScope, limitBytes: number, readBytes: number): AppError {
  return new AppError(
    'provider_error',
    `${scope.provider} sent more than ${formatBytes(limitBytes)}, the limit for one response; Atelier stopped reading it.`,
    { retryable: false, details: { phase: 'after_send', limitBytes, readBytes } },
  );
}

export function malformedError(scope: CallScope, what: string, details: Record<string, unknown> = {}): AppError {
  return new AppError('provider_error', `${scope.provider} sent ${what}.`, {
    retryable: false,
    details: { phase: 'after_send', ...details },
  });
}

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
  providerMessage?: string;
  providerCode?: string;
  providerType?: string;
  /** Replaces the generic message for this status when the provider said something more specific. */
  message?: string;
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

function describeCode(code: string): string {
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'host name not found';
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') return 'connection timed out';
  if (code === 'ECONNRESET') return 'connection reset while connecting';
  return code;
}

export function formatMs(ms: number): string {
  return ms < 10_000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
