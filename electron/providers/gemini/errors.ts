import { AppError } from '../../../shared/errors.js';
import { parseJsonSync, readBounded } from '../http/body.js';
import { type CallScope, redact } from '../http/errors.js';
import { statusError } from '../http/status-errors.js';
import { isRecord } from './connection.js';

/** Error bodies are small; a bigger one is not a Google error body and is not worth reading whole. */
const ERROR_BODY_LIMIT = 256 * 1024;

/** Google's `{"error":{code,message,status,details:[{@type,reason,retryDelay,violations}]}}`. */
export interface GoogleErrorBody {
  message?: string;
  status?: string;
  reasons: string[];
  /** RetryInfo.retryDelay ("36s"), in milliseconds. */
  retryDelayMs?: number;
  /** QuotaFailure violations' quota ids (…PerDay… is a daily quota, not a burst limit). */
  quotaIds: string[];
}

export function extractGoogleError(json: unknown): GoogleErrorBody {
  const out: GoogleErrorBody = { reasons: [], quotaIds: [] };
  const inner = isRecord(json) && isRecord(json.error) ? json.error : undefined;
  if (inner === undefined) return out;
  if (typeof inner.message === 'string') out.message = inner.message;
  if (typeof inner.status === 'string') out.status = inner.status;
  const details = Array.isArray(inner.details) ? inner.details.slice(0, 20) : [];
  for (const detail of details) {
    if (!isRecord(detail)) continue;
    if (typeof detail.reason === 'string') out.reasons.push(detail.reason);
    if (typeof detail.retryDelay === 'string') {
      const seconds = /^(\d{1,6})(?:\.\d+)?s$/.exec(detail.retryDelay)?.[1];
      if (seconds !== undefined) out.retryDelayMs = Number(seconds) * 1000;
    }
    const violations = Array.isArray(detail.violations) ? detail.violations.slice(0, 20) : [];
    for (const v of violations) if (isRecord(v) && typeof v.quotaId === 'string') out.quotaIds.push(v.quotaId);
  }
  return out;
}

/** A quota or balance that is used up: waiting a minute will not help (a daily quota, billing, a 402). */
function isOutOfQuota(status: number, body: GoogleErrorBody, said: string): boolean {
  if (status === 402) return true;
  if (status !== 429) return false;
  return body.quotaIds.some((id) => /PerDay/i.test(id)) || /billing|credits|prepay/i.test(said);
}

/** Maps a Gemini error answer to an AppError; every word the server said is redacted of the key first. */
export function geminiError(status: number, headers: Headers, body: GoogleErrorBody, scope: CallScope): AppError {
  const said = body.message === undefined ? '' : redact(body.message, scope.secrets);
  const base = {
    status,
    headers,
    ...(said === '' ? {} : { providerMessage: said }),
    ...(body.status === undefined ? {} : { providerCode: body.status }),
  };
  // Google answers a malformed key with 400 INVALID_ARGUMENT, reason API_KEY_INVALID.
  if (status === 401 || status === 403 || body.reasons.includes('API_KEY_INVALID')) {
    return new AppError(
      'provider_auth',
      `${scope.provider} did not accept the API key (HTTP ${status}${body.status ? ` ${body.status}` : ''}). Check ` +
        `it in settings; Google blocks unrestricted keys and needs a paid tier for image models.`,
      { retryable: false, details: { ...detailsOf(base), phase: 'before_accept' } },
    );
  }
  if (isOutOfQuota(status, body, said)) {
    return new AppError(
      'provider_rejected',
      `Your ${scope.provider} account is out of credits or quota (HTTP ${status}${body.status ? ` ${body.status}` : ''}). ` +
        `Check the plan and billing in Google AI Studio; Atelier will not retry this.`,
      { retryable: false, details: { ...detailsOf(base), phase: 'before_accept' } },
    );
  }
  if (status === 429 && headers.get('retry-after') === null && body.retryDelayMs !== undefined) {
    // No Retry-After header, but Google's RetryInfo says how long: the scheduler honours it the same way.
    const withDelay = new Headers(headers);
    withDelay.set('retry-after', String(body.retryDelayMs / 1000));
    return statusError({ ...base, headers: withDelay }, scope);
  }
  if (status === 400) {
    return statusError(
      {
        ...base,
        message: `${scope.provider} rejected the request as invalid (HTTP 400 ${body.status ?? ''}).`.replace(
          ' )',
          ')',
        ),
      },
      scope,
    );
  }
  return statusError(base, scope);
}

function detailsOf(base: { status: number; providerMessage?: string; providerCode?: string }): Record<string, unknown> {
  return {
    status: base.status,
    ...(base.providerMessage === undefined ? {} : { providerMessage: base.providerMessage }),
    ...(base.providerCode === undefined ? {} : { providerCode: base.providerCode }),
  };
}

/** Reads a non-2xx response's body (bounded) and maps it. */
export async function geminiResponseError(response: Response, scope: CallScope, limitBytes: number): Promise<AppError> {
  let body: GoogleErrorBody = { reasons: [], quotaIds: [] };
  try {
    body = extractGoogleError(
      parseJsonSync(
        await readBounded(response, Math.min(limitBytes, ERROR_BODY_LIMIT), scope),
        scope,
        'an error response',
      ),
    );
  } catch {
    // The status alone still classifies the failure; an unreadable error body must not hide it.
  }
  return geminiError(response.status, response.headers, body, scope);
}
