import type { GenerateRequest } from '../../../shared/contract.js';
import type { ProviderConfig } from '../types.js';
import { DEFAULT_FAL_MODEL } from './models.js';
import { hasKey, keyMayGoTo } from '../http/api-key.js';
export { hasKey, isRecord } from '../http/api-key.js';
// The key as stored and trimmed: what redaction hides.
export { keySecrets as secretsOf } from '../http/api-key.js';

export const FAL_QUEUE_URL = 'https://queue.fal.run';
export const PROVIDER = 'fal.ai';

/** The model id as typed (fal's ids are open-ended: `owner/alias[/subpath]`), without stray slashes or spaces. */
export function modelFor(request: GenerateRequest | undefined, config: ProviderConfig): string {
  const raw = request?.model ?? config.model ?? DEFAULT_FAL_MODEL;
  const trimmed = raw.trim().replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? DEFAULT_FAL_MODEL : trimmed;
}

/** fal's key travels as `Authorization: Key <key>` (docs/hosted-protocols.md §1.3). */
export function authHeaders(config: ProviderConfig): Record<string, string> {
  return hasKey(config) ? { authorization: `Key ${config.apiKey!.trim()}` } : {};
}

/**
 * The key may go to a status, result or cancel URL fal returned only when it is fal's own (https, *.fal.run or
 * *.fal.ai) or on the configured server itself (a relay, the loopback fake); anywhere else would collect the key.
 */
export function mayCarryKey(url: string, base: string): boolean {
  return keyMayGoTo(url, base, ['fal.run', 'fal.ai']);
}
