import type { GenerateRequest } from '../../../shared/contract.js';
import type { ProviderConfig } from '../types.js';
import { DEFAULT_BFL_MODEL } from './models.js';

export const BFL_BASE_URL = 'https://api.bfl.ai';
export const PROVIDER = 'Black Forest Labs';

export function modelFor(request: GenerateRequest | undefined, config: ProviderConfig): string {
  return request?.model ?? config.model ?? DEFAULT_BFL_MODEL;
}

/** BFL's key travels in `x-key` (docs/hosted-protocols.md §1.2). */
export function authHeaders(config: ProviderConfig): Record<string, string> {
  return hasKey(config) ? { 'x-key': config.apiKey! } : {};
}

export function secretsOf(config: ProviderConfig): string[] {
  return [config.apiKey].filter((s): s is string => typeof s === 'string' && s !== '');
}

export function hasKey(config: ProviderConfig): boolean {
  return config.apiKey !== undefined && config.apiKey.trim() !== '';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The key may go to the polling URL BFL returned only when it is BFL's own (https, *.bfl.ai) or on the configured
 * server itself (a relay, the loopback fake): a polling URL pointing elsewhere would otherwise collect the key.
 */
export function mayCarryKey(url: string, base: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.origin === new URL(base).origin) return true;
  return parsed.protocol === 'https:' && (parsed.hostname === 'bfl.ai' || parsed.hostname.endsWith('.bfl.ai'));
}
