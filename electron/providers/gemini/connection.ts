import type { GenerateRequest } from '../../../shared/contract.js';
import { joinUrl } from '../http/url.js';
import type { ProviderConfig } from '../types.js';
import { DEFAULT_GEMINI_MODEL } from './models.js';
export { hasKey, isRecord } from '../http/api-key.js';
// The key as stored and trimmed: what redaction hides.
export { keySecrets as secretsOf } from '../http/api-key.js';

export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';
export const PROVIDER = 'Google Gemini';

/** `{base}/v1beta/<path>`: /v1 rejects `responseModalities` (docs/hosted-protocols.md §1.1, Gotcha). */
export function geminiUrl(base: string, path: string): string {
  return /\/v1beta$/i.test(base) ? joinUrl(base, path) : joinUrl(base, `v1beta/${path}`);
}

export function modelFor(request: GenerateRequest | undefined, config: ProviderConfig): string {
  return request?.model ?? config.model ?? DEFAULT_GEMINI_MODEL;
}

/** The key travels in a header, never in the URL's `?key=` (URLs end up in logs). */
export function authHeaders(config: ProviderConfig): Record<string, string> {
  return config.apiKey !== undefined && config.apiKey !== '' ? { 'x-goog-api-key': config.apiKey } : {};
}
