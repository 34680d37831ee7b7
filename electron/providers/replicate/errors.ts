import { AppError } from '../../../shared/errors.js';
import { parseJsonSync, readBounded } from '../http/body.js';
import { type CallScope, redact } from '../http/errors.js';
import { statusError } from '../http/status-errors.js';
import { isRecord } from './connection.js';

/** Error bodies are small; a bigger one is not Replicate's and is not worth reading whole. */
const ERROR_BODY_LIMIT = 64 * 1024;

/** Replicate answers errors as problem details: `{title, detail, status}`, 422 with `invalid_fields[]`. */
interface ReplicateErrorBody {
  title?: string;
  detail?: string;
}

function extract(json: unknown): ReplicateErrorBody {
  if (!isRecord(json)) return {};
  const out: ReplicateErrorBody = {};
  if (typeof json.title === 'string') out.title = json.title.slice(0, 200);
  if (typeof json.detail === 'string') out.detail = json.detail.slice(0, 1000);
  else if (Array.isArray(json.invalid_fields)) {
    const first: unknown = json.invalid_fields[0];
    if (isRecord(first) && typeof first.description === 'string')
      out.detail = `${typeof first.field === 'string' ? `${first.field}: ` : ''}${first.description}`.slice(0, 1000);
  }
  return out;
}

/** "Request was throttled. Your rate limit resets in ~30s." (Replicate's 429 body) → 30. */
function resetSeconds(detail: string | undefined): number | undefined {
  if (detail === undefined) return undefined;
  const at = detail.indexOf('resets in ~');
  if (at === -1) return undefined;
  const match = /^(\d{1,4})s/.exec(detail.slice(at + 'resets in ~'.length, at + 'resets in ~'.length + 6));
  return match === null ? undefined : Number(match[1]);
}

/** Maps a Replicate error answer to an AppError; the server's words are redacted of the token first. */
export function replicateError(status: number, headers: Headers, body: ReplicateErrorBody, scope: CallScope): AppError {
  const said = redact(body.detail ?? body.title ?? '', scope.secrets);
  const base = { status, headers, ...(said === '' ? {} : { providerMessage: said }) };
  const p = scope.provider;
  if (status === 401 || status === 403) {
    return statusError(
      { ...base, message: `${p} did not accept the API token (HTTP ${status}). Check it in settings.` },
      scope,
    );
  }
  if (status === 402) {
    return new AppError(
      'provider_rejected',
      `Your ${p} account is out of credit (HTTP 402). Add credit or a payment method at ` +
        'replicate.com/account/billing; Atelier will not retry this.',
      {
        retryable: false,
        details: { status, phase: 'before_accept', ...(said === '' ? {} : { providerMessage: said }) },
      },
    );
  }
  if (status === 422) {
    const what = said === '' ? '' : `: ${said}`;
    return new AppError('provider_rejected', `${p} refused the model's input (HTTP 422)${what}`, {
      retryable: false,
      details: { status, phase: 'before_accept', ...(said === '' ? {} : { providerMessage: said }) },
    });
  }
  if (status === 404) {
    return statusError(
      { ...base, message: `${p} has no such model or version (HTTP 404): check the model name.` },
      scope,
    );
  }
  const seconds = resetSeconds(body.detail);
  if (status === 429 && headers.get('retry-after') === null && seconds !== undefined) {
    // No Retry-After header but the body says when the limit resets: the scheduler honours it the same way.
    const withDelay = new Headers(headers);
    withDelay.set('retry-after', String(seconds));
    return statusError({ ...base, headers: withDelay }, scope);
  }
  return statusError(base, scope);
}

/** Reads a non-2xx response's body (bounded) and maps it. */
export async function replicateResponseError(
  response: Response,
  scope: CallScope,
  limitBytes: number,
): Promise<AppError> {
  let body: ReplicateErrorBody = {};
  try {
    const bytes = await readBounded(response, Math.min(limitBytes, ERROR_BODY_LIMIT), scope);
    body = extract(parseJsonSync(bytes, scope, 'an error response'));
  } catch {
    // The status alone still classifies the failure; an unreadable error body must not hide it.
  }
  return replicateError(response.status, response.headers, body, scope);
}

/** After Replicate took the prediction nothing is retried: the same error, marked as possibly billed. */
export function afterAccept(error: AppError): AppError {
  return new AppError(error.code === 'provider_rate_limited' ? 'provider_error' : error.code, error.message, {
    retryable: false,
    details: { ...error.details, phase: 'after_send' },
  });
}

/** A prediction that ended without output, in words; `remoteGone` when Replicate no longer has what it made. */
export function endedError(scope: CallScope, message: string, details: Record<string, unknown>): AppError {
  return new AppError('provider_error', message, { retryable: false, details: { phase: 'after_send', ...details } });
}

// Replicate's safety checkers say "NSFW" (FLUX, SD) or "flagged as sensitive (E005)" (partner models).
const SAFETY_WORDS = /nsfw|sensitive|safety|moderat|E005/i;

/** A failed prediction's `error` text → the job's error, naming a safety block as one. */
export function failedError(scope: CallScope, error: string | undefined, id: string): AppError {
  const said = error === undefined ? '' : redact(error, scope.secrets);
  const p = scope.provider;
  if (SAFETY_WORDS.test(said)) {
    return endedError(
      scope,
      `${p}'s safety check blocked this prediction: "${said}". Rephrase the prompt or use another image.`,
      { replicateStatus: 'failed', safety: true, predictionId: id, providerMessage: said },
    );
  }
  return endedError(scope, `${p} could not make the image${said === '' ? '.' : `: "${said}"`}`, {
    replicateStatus: 'failed',
    predictionId: id,
    ...(said === '' ? {} : { providerMessage: said }),
  });
}
