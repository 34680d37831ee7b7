import { AppError } from '../../../shared/errors.js';
import { parseJsonSync, readBounded } from '../http/body.js';
import { type CallScope, redact } from '../http/errors.js';
import { statusError } from '../http/status-errors.js';
import { isRecord } from './connection.js';

/** Error bodies are small; a bigger one is not Stability's and is not worth reading whole. */
const ERROR_BODY_LIMIT = 64 * 1024;
const MAX_LISTED = 5;
/** Stability blocks a key for 60 s once it passes 150 requests in 10 s (docs/provider-protocols.md §5). */
const RATE_LIMIT_TIMEOUT_S = 60;

/** What Stability said: `{"id","name","errors":[…]}` (docs/provider-protocols.md §5). */
export interface StabilityErrorBody {
  name?: string;
  errors: string[];
}

export function extractStabilityError(json: unknown): StabilityErrorBody {
  const out: StabilityErrorBody = { errors: [] };
  if (!isRecord(json)) return out;
  if (typeof json.name === 'string') out.name = json.name.slice(0, 60);
  const list = Array.isArray(json.errors) ? json.errors.slice(0, MAX_LISTED) : [];
  for (const item of list) if (typeof item === 'string') out.errors.push(item.slice(0, 300));
  if (out.errors.length === 0 && typeof json.message === 'string') out.errors.push(json.message.slice(0, 300));
  return out;
}

function rejected(message: string, status: number, said: string, name: string | undefined): AppError {
  return new AppError('provider_rejected', message, {
    retryable: false,
    details: {
      status,
      phase: 'before_accept',
      ...(said === '' ? {} : { providerMessage: said }),
      ...(name === undefined ? {} : { providerCode: name }),
    },
  });
}

/** Maps a Stability error answer to an AppError; every word the server said is redacted of the key first. */
export function stabilityError(status: number, headers: Headers, body: StabilityErrorBody, scope: CallScope): AppError {
  const said = redact(body.errors.join('; '), scope.secrets);
  const quoted = said === '' ? '' : `: "${said}"`;
  const p = scope.provider;
  const base = {
    status,
    headers,
    ...(said === '' ? {} : { providerMessage: said }),
    ...(body.name === undefined ? {} : { providerCode: body.name }),
  };
  if (status === 401 || (status === 403 && body.name === 'unauthorized')) {
    return statusError(
      { ...base, message: `${p} did not accept the API key (HTTP ${status}). Check it in settings.` },
      scope,
    );
  }
  if (status === 403 && (body.name === 'content_moderation' || /moderation|flagged/i.test(said))) {
    // Stability refuses before it runs anything and says the request was not charged.
    return new AppError(
      'provider_error',
      `${p}'s content moderation refused the request (HTTP 403)${quoted}. Rephrase the prompt or use another ` +
        `image; nothing was charged.`,
      {
        retryable: false,
        details: {
          status,
          phase: 'before_accept',
          moderation: true,
          ...(said === '' ? {} : { providerMessage: said }),
        },
      },
    );
  }
  if (status === 402) {
    return rejected(
      `Your ${p} account is out of credits (HTTP 402). Buy credits at platform.stability.ai; Atelier will not retry ` +
        `this.`,
      status,
      said,
      body.name,
    );
  }
  if (status === 413) {
    return rejected(
      `The upload was too large for ${p} (HTTP 413): it takes images of at most 10 MB. Use a smaller image.`,
      status,
      said,
      body.name,
    );
  }
  if (status === 400 || status === 422) {
    return rejected(`${p} rejected the request (HTTP ${status})${quoted}.`, status, said, body.name);
  }
  if (status === 429 && headers.get('retry-after') === null) {
    const withDelay = new Headers(headers);
    withDelay.set('retry-after', String(RATE_LIMIT_TIMEOUT_S));
    return statusError(
      { ...base, headers: withDelay, message: `${p} is rate limiting requests (HTTP 429, 150 requests per 10 s).` },
      scope,
    );
  }
  return statusError(base, scope);
}

/** Reads a non-2xx response's body (bounded) and maps it. */
export async function stabilityResponseError(
  response: Response,
  scope: CallScope,
  limitBytes: number,
): Promise<AppError> {
  let body: StabilityErrorBody = { errors: [] };
  try {
    const bytes = await readBounded(response, Math.min(limitBytes, ERROR_BODY_LIMIT), scope);
    body = extractStabilityError(parseJsonSync(bytes, scope, 'an error response'));
  } catch {
    // The status alone still classifies the failure; an unreadable error body must not hide it.
  }
  return stabilityError(response.status, response.headers, body, scope);
}

/** After Stability took the work nothing is retried: the same error, marked as possibly billed. */
export function afterAccept(error: AppError): AppError {
  return new AppError(error.code === 'provider_rate_limited' ? 'provider_error' : error.code, error.message, {
    retryable: false,
    details: { ...error.details, phase: 'after_send' },
  });
}
