import { AppError } from '../../../shared/errors.js';
import { parseJsonSync, readBounded } from '../http/body.js';
import { type CallScope, redact } from '../http/errors.js';
import { statusError } from '../http/status-errors.js';

/** Error bodies are small; a bigger one is not an OpenAI error body and is not worth reading whole. */
const ERROR_BODY_LIMIT = 256 * 1024;

export interface OpenAIErrorBody {
  message?: string;
  type?: string;
  code?: string;
  param?: string;
}

/** `{"error":{message,type,param,code}}`, tolerating relays that send `{"error":"text"}` or `{"message":...}`. */
export function extractOpenAIError(json: unknown): OpenAIErrorBody {
  if (json === null || typeof json !== 'object') return {};
  const root = json as Record<string, unknown>;
  const inner = root.error;
  const source = inner !== null && typeof inner === 'object' ? (inner as Record<string, unknown>) : root;
  const out: OpenAIErrorBody = {};
  if (typeof inner === 'string') out.message = inner;
  if (typeof source.message === 'string') out.message = source.message;
  if (typeof source.type === 'string') out.type = source.type;
  if (typeof source.code === 'string') out.code = source.code;
  if (typeof source.param === 'string') out.param = source.param;
  return out;
}

const MODERATION_CODES = new Set(['moderation_blocked', 'content_policy_violation']);

/** Maps an OpenAI error body (from a non-2xx response or an SSE `error` event) to an AppError. */
export function openAIError(status: number, headers: Headers, body: OpenAIErrorBody, scope: CallScope): AppError {
  const code = body.code ?? body.type;
  const said = body.message === undefined ? undefined : redact(body.message, scope.secrets);
  const base = {
    status,
    headers,
    ...(said === undefined ? {} : { providerMessage: said }),
    ...(body.code === undefined ? {} : { providerCode: body.code }),
    ...(body.type === undefined ? {} : { providerType: body.type }),
  };

  if (
    (status === 400 || status === 0) &&
    (MODERATION_CODES.has(body.code ?? '') || body.type === 'image_generation_user_error')
  ) {
    const flagged = /safety_violations=\[([^\]]*)\]/.exec(said ?? '')?.[1];
    const error = statusError(
      {
        ...base,
        status: 400,
        message:
          `${scope.provider} refused the prompt under its content ` +
          `policy${flagged ? ` (flagged: ${flagged})` : ''}. Rephrase it and try again.`,
      },
      scope,
    );
    return withoutSuffix(error, said, scope);
  }
  if (status === 429 && code === 'insufficient_quota') {
    return new AppError(
      'provider_rejected',
      'Your OpenAI account has run out of credit (insufficient_quota). Check the plan and billing; Atelier will not ' +
        'retry this.',
      {
        retryable: false,
        details: {
          status,
          providerCode: 'insufficient_quota',
          phase: 'before_accept',
          ...(said === undefined ? {} : { providerMessage: said }),
        },
      },
    );
  }
  if (status === 401)
    return withoutSuffix(
      statusError(
        { ...base, message: `${scope.provider} did not accept the API key (HTTP 401). Check it in settings.` },
        scope,
      ),
      said,
      scope,
    );
  if (status === 400 && body.param !== undefined) {
    return statusError(
      { ...base, message: `${scope.provider} rejected the value of "${body.param}" (HTTP 400).` },
      scope,
    );
  }
  const error = statusError(base, scope);
  // x-should-retry:false is OpenAI saying a retry will not help; it can only make us more careful, never less.
  if (error.retryable && headers.get('x-should-retry') === 'false') {
    return new AppError(error.code, error.message, {
      retryable: false,
      ...(error.details === undefined ? {} : { details: error.details }),
    });
  }
  return error;
}

/** Reads a non-2xx response's body (bounded) and maps it. */
export async function openAIResponseError(response: Response, scope: CallScope, limitBytes: number): Promise<AppError> {
  let body: OpenAIErrorBody = {};
  try {
    body = extractOpenAIError(
      parseJsonSync(
        await readBounded(response, Math.min(limitBytes, ERROR_BODY_LIMIT), scope),
        scope,
        'an error response',
      ),
    );
  } catch {
    // The status alone still classifies the failure; an unreadable error body must not hide it.
  }
  return openAIError(response.status, response.headers, body, scope);
}

/** The message for policy refusals is ours alone; OpenAI's own text (with its request id) stays in details. */
function withoutSuffix(error: AppError, said: string | undefined, scope: CallScope): AppError {
  if (said === undefined) return error;
  const message = error.message.split(` ${scope.provider} said: `)[0] ?? error.message;
  return new AppError(error.code, message, {
    retryable: error.retryable,
    ...(error.details === undefined ? {} : { details: error.details }),
  });
}
