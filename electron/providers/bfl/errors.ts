import { AppError } from '../../../shared/errors.js';
import { parseJsonSync, readBounded } from '../http/body.js';
import { type CallScope, redact } from '../http/errors.js';
import { statusError } from '../http/status-errors.js';
import { isRecord } from './connection.js';

/** Error bodies are small; a bigger one is not BFL's and is not worth reading whole. */
const ERROR_BODY_LIMIT = 64 * 1024;

/** What BFL said: `{"error","message","retry_after"}` on 429, FastAPI's `{"detail": …}` elsewhere. */
interface BflErrorBody {
  message?: string;
  code?: string;
  retryAfterSeconds?: number;
}

function extract(json: unknown): BflErrorBody {
  if (!isRecord(json)) return {};
  const out: BflErrorBody = {};
  if (typeof json.message === 'string') out.message = json.message;
  else if (typeof json.detail === 'string') out.message = json.detail;
  else if (Array.isArray(json.detail)) {
    const first: unknown = json.detail[0];
    if (isRecord(first) && typeof first.msg === 'string') out.message = first.msg;
  }
  if (typeof json.error === 'string') out.code = json.error.slice(0, 60);
  if (typeof json.retry_after === 'number' && Number.isFinite(json.retry_after) && json.retry_after >= 0)
    out.retryAfterSeconds = Math.min(json.retry_after, 3600);
  return out;
}

/** Maps a BFL error answer to an AppError; the server's words are redacted of the key first. */
export function bflError(status: number, headers: Headers, body: BflErrorBody, scope: CallScope): AppError {
  const said = body.message === undefined ? '' : redact(body.message, scope.secrets);
  const base = {
    status,
    headers,
    ...(said === '' ? {} : { providerMessage: said }),
    ...(body.code === undefined ? {} : { providerCode: body.code }),
  };
  if (status === 401 || status === 403) {
    return statusError(
      {
        ...base,
        message: `${scope.provider} did not accept the API key (HTTP ${status}). Check it in settings.`,
      },
      scope,
    );
  }
  if (status === 402) {
    return new AppError(
      'provider_rejected',
      `Your ${scope.provider} account is out of credits (HTTP 402). Add credits at bfl.ai; Atelier will not retry ` +
        `this.`,
      {
        retryable: false,
        details: { status, phase: 'before_accept', ...(said === '' ? {} : { providerMessage: said }) },
      },
    );
  }
  if (status === 429 && headers.get('retry-after') === null && body.retryAfterSeconds !== undefined) {
    // No Retry-After header but the body's retry_after says how long: the scheduler honours it the same way.
    const withDelay = new Headers(headers);
    withDelay.set('retry-after', String(body.retryAfterSeconds));
    return statusError({ ...base, headers: withDelay }, scope);
  }
  return statusError(base, scope);
}

/** Reads a non-2xx response's body (bounded) and maps it. */
export async function bflResponseError(response: Response, scope: CallScope, limitBytes: number): Promise<AppError> {
  let body: BflErrorBody = {};
  try {
    const bytes = await readBounded(response, Math.min(limitBytes, ERROR_BODY_LIMIT), scope);
    body = extract(parseJsonSync(bytes, scope, 'an error response'));
  } catch {
    // The status alone still classifies the failure; an unreadable error body must not hide it.
  }
  return bflError(response.status, response.headers, body, scope);
}

/** After BFL took the task nothing is retried: the same error, marked as possibly billed. */
export function afterAccept(error: AppError): AppError {
  return new AppError(error.code === 'provider_rate_limited' ? 'provider_error' : error.code, error.message, {
    retryable: false,
    details: { ...error.details, phase: 'after_send' },
  });
}
