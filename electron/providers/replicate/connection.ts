import type { GenerateRequest } from '../../../shared/contract.js';
import type { ProviderConfig } from '../types.js';
import { DEFAULT_REPLICATE_MODEL } from './models.js';
import { hasKey } from '../http/api-key.js';
export { hasKey, isRecord } from '../http/api-key.js';
// The key as stored and trimmed: what redaction hides.
export { keySecrets as secretsOf } from '../http/api-key.js';

export const REPLICATE_BASE_URL = 'https://api.replicate.com';
export const PROVIDER = 'Replicate';

export function modelFor(request: GenerateRequest | undefined, config: ProviderConfig): string {
  return request?.model ?? config.model ?? DEFAULT_REPLICATE_MODEL;
}

/** Replicate's token travels as `Authorization: Bearer` (docs/hosted-protocols.md §1.4). */
export function authHeaders(config: ProviderConfig): Record<string, string> {
  return hasKey(config) ? { authorization: `Bearer ${config.apiKey!.trim()}` } : {};
}

/**
 * The token may go to a prediction URL Replicate returned (`urls.get`, `urls.cancel`) only when it is the API's own
 * host over https or the configured server itself (a relay, the loopback fake). Output files (replicate.delivery) never
 * get it: they are public links and Replicate documents no auth for them.
 */
export function mayCarryKey(url: string, base: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.origin === new URL(base).origin) return true;
  return parsed.protocol === 'https:' && parsed.hostname === 'api.replicate.com';
}
