import { AppError } from '../../../shared/errors.js';
import { parseJsonSync, readBounded } from '../http/body.js';
import { type CallScope, redact } from '../http/errors.js';
import { statusError } from '../http/status-errors.js';
import { isRecord } from './connection.js';

/** Error bodies are small; a bigger one is not fal's and is not worth reading whole. */
const ERROR_BODY_LIMIT = 64 * 1024;
/** At most this many of a 422's problems are named; the rest are counted. */
const MAX_PROBLEMS = 5;

/** One entry of a 422's `detail` list (fal's model errors: loc, msg, type, and for moderation its categories). */
export interface FalProblem {
  field: string;
  message: string;
  type: string;
  categories: string[];
}

/** What fal said: `{detail: "…", error_type}` for request errors, `{detail: [problems]}` for model errors. */
export interface FalErrorBody {
  message?: string;
  errorType?: string;
  problems: FalProblem[];
}

function text(value: unknown, max: number): string {
  return typeof value === 'string' ? value.slice(0, max) : '';
}

function problemOf(entry: unknown): FalProblem | null {
  if (!isRecord(entry)) return null;
  const loc = Array.isArray(entry.loc) ? entry.loc.slice(0, 8) : [];
  const parts = loc.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number').map(String);
  // FastAPI puts "body" first: the field is what follows it.
  const field = (parts[0] === 'body' ? parts.slice(1) : parts).join('.').slice(0, 120);
  const categories = Array.isArray(entry.categories)
    ? entry.categories
        .slice(0, 10)
        .filter((c): c is string => typeof c === 'string')
        .map((c) => c.slice(0, 40))
    : [];
  return { field, message: text(entry.msg, 300), type: text(entry.type, 60), categories };
}

export function extractFalError(json: unknown): FalErrorBody {
  const out: FalErrorBody = { problems: [] };
  // A bare list is the model-error shape without its wrapper.
  const detail: unknown = Array.isArray(json) ? json : isRecord(json) ? json.detail : undefined;
  if (typeof detail === 'string') out.message = detail.slice(0, 500);
  else if (Array.isArray(detail)) {
    for (const entry of detail.slice(0, 50)) {
      const problem = problemOf(entry);
      if (problem !== null) out.problems.push(problem);
    }
  }
  if (isRecord(json)) {
    if (out.message === undefined && typeof json.message === 'string') out.message = json.message.slice(0, 500);
    if (typeof json.error_type === 'string') out.errorType = json.error_type.slice(0, 60);
  }
  return out;
}

/** A 422's problems in words: `image_size.width: must be at most 2048; prompt: field required`. */
export function problemsInWords(problems: readonly FalProblem[], secrets: readonly string[]): string {
  const named = problems.slice(0, MAX_PROBLEMS).map((p) => {
    const said = redact(p.message === '' ? p.type : p.message, secrets);
    return p.field === '' ? said : `${p.field}: ${said}`;
  });
  const more = problems.length > MAX_PROBLEMS ? ` (and ${problems.length - MAX_PROBLEMS} more)` : '';
  return named.join('; ') + more;
}

/** A balance-locked account answers 403 `User is locked. Reason: Exhausted balance…` rather than 402. */
function outOfCredits(said: string): boolean {
  return /exhausted balance|insufficient (balance|credits)|top up your balance|out of credits/i.test(said);
}

function lockedAccount(said: string): boolean {
  return /user is locked/i.test(said);
}

export interface ErrorWhere {
  /** The model id the call was for, named when fal does not know it. */
  model: string;
  phase: 'before_accept' | 'after_send';
}

/** Maps a fal error answer to an AppError; the server's words are redacted of the key first. */
export function falError(
  status: number,
  headers: Headers,
  body: FalErrorBody,
  scope: CallScope,
  where: ErrorWhere,
): AppError {
  const said = body.message === undefined ? '' : redact(body.message, scope.secrets);
  const details = {
    status,
    phase: where.phase,
    ...(said === '' ? {} : { providerMessage: said }),
    ...(body.errorType === undefined ? {} : { providerCode: body.errorType }),
  };
  const p = scope.provider;
  if (status === 402 || ((status === 401 || status === 403) && outOfCredits(said))) {
    return new AppError(
      'provider_rejected',
      `Your ${p} account is out of credits (HTTP ${status}${said === '' ? '' : `: "${said}"`}). Top up at ` +
        `fal.ai/dashboard/billing; Atelier will not retry this.`,
      { retryable: false, details },
    );
  }
  if ((status === 401 || status === 403) && lockedAccount(said)) {
    return new AppError('provider_rejected', `${p} has locked this account: "${said}". Atelier will not retry this.`, {
      retryable: false,
      details,
    });
  }
  if (status === 401 || status === 403) {
    return new AppError(
      'provider_auth',
      `${p} did not accept the API key (HTTP ${status}). Check it in settings.${said === '' ? '' : ` ${p} said: "${said}"`}`,
      { retryable: false, details: { ...details, phase: 'before_accept' } },
    );
  }
  if (status === 422 && body.problems.length > 0) {
    const blocked = body.problems.find((problem) => problem.type === 'content_policy_violation');
    const words = problemsInWords(body.problems, scope.secrets);
    if (blocked !== undefined) {
      const what = blocked.field === '' ? 'the request' : `the ${blocked.field.replace(/_/g, ' ')}`;
      const why = blocked.categories.length === 0 ? '' : ` (${blocked.categories.join(', ')})`;
      return new AppError(
        'provider_error',
        `${p}'s content checker blocked ${what}${why}. Change it or try another model.`,
        { retryable: false, details: { ...details, moderation: true, categories: blocked.categories } },
      );
    }
    return new AppError('provider_rejected', `${where.model} did not accept the input: ${words}.`, {
      retryable: false,
      details: { ...details, problems: words },
    });
  }
  if (status === 404 && where.phase === 'before_accept') {
    return new AppError(
      'provider_rejected',
      `${p} has no model "${where.model.slice(0, 120)}" (HTTP 404). Check the model id on fal.ai/models.`,
      { retryable: false, details: { ...details, field: 'model' } },
    );
  }
  const mapped = statusError(
    { status, headers, ...(said === '' ? {} : { providerMessage: said }), providerCode: body.errorType },
    scope,
  );
  if (where.phase === 'before_accept') return mapped;
  return afterAccept(mapped);
}

/** Reads a non-2xx response's body (bounded) and maps it. */
export async function falResponseError(
  response: Response,
  scope: CallScope,
  limitBytes: number,
  where: ErrorWhere,
): Promise<AppError> {
  let body: FalErrorBody = { problems: [] };
  try {
    const bytes = await readBounded(response, Math.min(limitBytes, ERROR_BODY_LIMIT), scope);
    body = extractFalError(parseJsonSync(bytes, scope, 'an error response'));
  } catch {
    // The status alone still classifies the failure; an unreadable error body must not hide it.
  }
  return falError(response.status, response.headers, body, scope, where);
}

/** After fal took the request nothing is retried: the same error, marked as possibly billed. */
export function afterAccept(error: AppError): AppError {
  return new AppError(
    error.code === 'provider_rate_limited' || error.code === 'provider_unavailable' ? 'provider_error' : error.code,
    error.message,
    {
      retryable: false,
      details: { ...error.details, phase: 'after_send' },
    },
  );
}
