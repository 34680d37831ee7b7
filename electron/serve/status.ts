import type { ErrorCode } from '../../shared/errors.js';

/**
 * The HTTP status for each contract error code. Provider failures are upstream trouble (502/504), except a rate
 * limit (429) and a refusal of the request's content (422); state clashes are 409.
 */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid_request: 400,
  not_found: 404,
  conflict: 409,
  overloaded: 503,
  provider_unavailable: 502,
  provider_auth: 502,
  provider_rate_limited: 429,
  provider_rejected: 422,
  provider_error: 502,
  timeout: 504,
  cancelled: 409,
  interrupted: 409,
  storage: 507,
  desktop_only: 501,
  internal: 500,
};
