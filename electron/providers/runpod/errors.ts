import { AppError } from '../../../shared/errors.js';
import { readBounded } from '../http/body.js';
import { type CallScope, redact } from '../http/errors.js';
import { statusError } from '../http/status-errors.js';
import { isRecord } from './connection.js';

/** Error bodies are small; a bigger one is not RunPod's and is not worth reading whole. */
const ERROR_BODY_LIMIT = 64 * 1024;

/** What RunPod said, from `{"error": …}`, `{"message": …}` or a plain-text body. */
function said(bytes: Buffer): string {
  const text = bytes.toString('utf8').trim();
  if (text === '') return '';
  if (!/^[{[]/.test(text)) return text.replace(/\s+/g, ' ').slice(0, 300);
  try {
    const json: unknown = JSON.parse(text);
    if (!isRecord(json)) return '';
    for (const key of ['error', 'message', 'detail']) {
      const value = json[key];
      if (typeof value === 'string') return value.replace(/\s+/g, ' ').slice(0, 300);
    }
  } catch {
    // Not JSON after all: the status alone still classifies it.
  }
  return '';
}

/**
 * A RunPod answer that is not 2xx as the AppError a person reads (docs/hosted-protocols.md §2.2): 401/403 the key,
 * 404 an endpoint id RunPod does not know, 429 a full queue or the rate limit (Retry-After honoured), 5xx RunPod's.
 */
export async function runpodResponseError(response: Response, scope: CallScope, endpointId: string): Promise<AppError> {
  let text = '';
  try {
    text = said(await readBounded(response, ERROR_BODY_LIMIT, scope));
  } catch {
    // An unreadable error body must not hide the status.
  }
  const providerMessage = text === '' ? undefined : redact(text, scope.secrets);
  const base = { status: response.status, headers: response.headers, providerMessage };
  if (response.status === 401 || response.status === 403)
    return statusError(
      {
        ...base,
        message: `${scope.provider} did not accept the API key (HTTP ${response.status}). Check it in settings.`,
      },
      scope,
    );
  if (response.status === 404)
    return statusError(
      {
        ...base,
        message:
          `${scope.provider} has no endpoint "${endpointId}" (HTTP 404). Check the endpoint's address in settings: ` +
          `it ends in the id shown on the endpoint's page.`,
      },
      scope,
    );
  if (response.status === 413)
    return statusError(
      {
        ...base,
        message: `${scope.provider} refused the job as too large (HTTP 413): /run takes at most 10 MB, source images included.`,
      },
      scope,
    );
  if (response.status === 429)
    return statusError(
      {
        ...base,
        message: `${scope.provider} is rate limiting this endpoint or its queue is full (HTTP 429).`,
      },
      scope,
    );
  return statusError(base, scope);
}

/** After RunPod took the job nothing is retried: the same error, marked as possibly billed. */
export function afterAccept(error: AppError): AppError {
  return new AppError(error.code === 'provider_rate_limited' ? 'provider_error' : error.code, error.message, {
    retryable: false,
    details: { ...error.details, phase: 'after_send' },
  });
}

/** Accepted work that ended without images, in words; `remoteGone` when RunPod no longer has it. */
export function jobFailed(message: string, details: Record<string, unknown> = {}): AppError {
  return new AppError('provider_error', message, { retryable: false, details: { phase: 'after_send', ...details } });
}
