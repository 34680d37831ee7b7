import type { ProviderConfig } from '../types.js';

/** A key is set when it holds more than white space. */
export function hasKey(config: ProviderConfig): boolean {
  return config.apiKey !== undefined && config.apiKey.trim() !== '';
}

/** What redaction must hide of a key-only provider: the key as stored and as trimmed. */
export function keySecrets(config: ProviderConfig): string[] {
  const key = config.apiKey;
  if (key === undefined || key.trim() === '') return [];
  return [...new Set([key, key.trim()])];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Whether the key may go to a URL a provider handed back (a polling, status or cancel URL): only to the configured
 * server itself (a relay, the loopback fake) or over https to the provider's own hosts, each host or any of its
 * subdomains; anywhere else would collect the key.
 */
export function keyMayGoTo(url: string, base: string, hosts: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.origin === new URL(base).origin) return true;
  if (parsed.protocol !== 'https:') return false;
  return hosts.some((host) => parsed.hostname === host || parsed.hostname.endsWith(`.${host}`));
}
