import type { AppError } from '../../../shared/errors.js';
import { parseJsonSync, readBounded } from '../http/body.js';
import type { CallScope } from '../http/errors.js';
import { statusError } from '../http/status-errors.js';

const ERROR_BODY_LIMIT = 256 * 1024;

/**
 * A1111 errors come as `{error, detail, body, errors}` from its own handler or FastAPI's 422 `{detail:[...]}`
 * (docs/provider-protocols.md §2.8); 401 drops WWW-Authenticate, so the status alone identifies it.
 */
export async function a1111ResponseError(response: Response, scope: CallScope, what: string): Promise<AppError> {
  let said: string | undefined;
  let errorClass: string | undefined;
  try {
    const json = parseJsonSync(await readBounded(response, ERROR_BODY_LIMIT, scope), scope, 'an error response');
    if (json !== null && typeof json === 'object') {
      const body = json as Record<string, unknown>;
      if (typeof body.error === 'string') errorClass = body.error;
      if (typeof body.detail === 'string' && body.detail !== '') said = body.detail;
      else if (Array.isArray(body.detail)) said = body.detail.map(describeValidationIssue).join('; ');
      else if (typeof body.errors === 'string' && body.errors !== '') said = body.errors;
    }
  } catch {
    // The status still classifies it.
  }
  const status = response.status;
  const base = {
    status,
    headers: response.headers,
    ...(said === undefined ? {} : { providerMessage: said }),
    ...(errorClass === undefined ? {} : { providerCode: errorClass }),
  };
  if (status === 401)
    return statusError(
      { ...base, message: 'A1111 did not accept the username or password (its --api-auth setting).' },
      scope,
    );
  if (status === 404 && said === undefined) {
    return statusError(
      { ...base, message: `A1111 has no ${what} at this address: start it with --api (or check the address).` },
      scope,
    );
  }
  if (status === 422)
    return statusError({ ...base, message: 'A1111 rejected the request as invalid (HTTP 422).' }, scope);
  if (status >= 500 && status !== 503) {
    return statusError(
      { ...base, message: `A1111 failed while generating${errorClass === undefined ? '' : ` (${errorClass})`}.` },
      scope,
    );
  }
  return statusError(base, scope);
}

function describeValidationIssue(issue: unknown): string {
  if (issue === null || typeof issue !== 'object') return String(issue);
  const { loc, msg } = issue as { loc?: unknown; msg?: unknown };
  const where = Array.isArray(loc) ? loc.filter((p) => p !== 'body').join('.') : '';
  return `${where}${where === '' ? '' : ': '}${typeof msg === 'string' ? msg : 'invalid'}`;
}
