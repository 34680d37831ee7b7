import type { GenerateRequest } from '../../../shared/contract.js';
import type { ProviderConfig } from '../types.js';
import { DEFAULT_FAL_MODEL } from './models.js';

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

export function secretsOf(config: ProviderConfig): string[] {
  const key = config.apiKey;
  if (key === undefined || key.trim() === '') return [];
  return [...new Set([key, key.trim()])];
}

export function hasKey(config: ProviderConfig): boolean {
  return config.apiKey !== undefined && config.apiKey.trim() !== '';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The key may go to a status, result or cancel URL fal returned only when it is fal's own (https, *.fal.run or
 * *.fal.ai) or on the configured server itself (a relay, the loopback fake); anywhere else would collect the key.
 */
export function mayCarryKey(url: string, base: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.origin === new URL(base).origin) return true;
  if (parsed.protocol !== 'https:') return false;
  const host = parsed.hostname;
  return host === 'fal.run' || host.endsWith('.fal.run') || host === 'fal.ai' || host.endsWith('.fal.ai');
}
