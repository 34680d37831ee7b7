import type { GenerateRequest } from '../../../shared/contract.js';
import type { ProviderConfig } from '../types.js';
import { DEFAULT_BFL_MODEL } from './models.js';
import { hasKey, keyMayGoTo } from '../http/api-key.js';
export { hasKey, isRecord } from '../http/api-key.js';
// The key as stored and trimmed: what redaction hides.
export { keySecrets as secretsOf } from '../http/api-key.js';

export const BFL_BASE_URL = 'https://api.bfl.ai';
export const PROVIDER = 'Black Forest Labs';

export function modelFor(request: GenerateRequest | undefined, config: ProviderConfig): string {
  return request?.model ?? config.model ?? DEFAULT_BFL_MODEL;
}

/** BFL's key travels in `x-key` (docs/hosted-protocols.md §1.2). */
export function authHeaders(config: ProviderConfig): Record<string, string> {
  return hasKey(config) ? { 'x-key': config.apiKey! } : {};
}

/**
 * The key may go to the polling URL BFL returned only when it is BFL's own (https, *.bfl.ai) or on the configured
 * server itself (a relay, the loopback fake): a polling URL pointing elsewhere would otherwise collect the key.
 */
export function mayCarryKey(url: string, base: string): boolean {
  return keyMayGoTo(url, base, ['bfl.ai']);
}
