import type { GenerateRequest } from '../../../shared/contract.js';
import { bearerHeader } from '../http/url.js';
import type { ProviderConfig } from '../types.js';
import { DEFAULT_STABILITY_MODEL } from './models.js';
import { hasKey } from '../http/api-key.js';
export { hasKey, isRecord } from '../http/api-key.js';
// The key as stored and trimmed: what redaction hides.
export { keySecrets as secretsOf } from '../http/api-key.js';

export const STABILITY_BASE_URL = 'https://api.stability.ai';
export const PROVIDER = 'Stability AI';

export function modelFor(request: GenerateRequest | undefined, config: ProviderConfig): string {
  return request?.model ?? config.model ?? DEFAULT_STABILITY_MODEL;
}

/**
 * Stability takes `Authorization: Bearer` (docs/hosted-protocols.md §1.5). Every URL Atelier calls is built from the
 * configured base (results are polled by id, never from a URL Stability returned), so the key goes nowhere else.
 */
export function authHeaders(config: ProviderConfig): Record<string, string> {
  return hasKey(config) ? { ...bearerHeader(config.apiKey!), 'stability-client-id': 'atelier' } : {};
}
