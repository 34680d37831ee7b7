import type { GenerateRequest } from '../../../shared/contract.js';
import { basicHeader, bearerHeader, joinUrl } from '../http/url.js';
import type { ProviderConfig } from '../types.js';
import { DEFAULT_OPENAI_MODEL } from './models.js';

export const OPENAI_BASE_URL = 'https://api.openai.com';
export const PROVIDER = 'OpenAI';

/** `{base}/v1/<path>`, accepting a base that already ends in /v1 (most compatible servers document it that way). */
export function openAIUrl(base: string, path: string): string {
  return /\/v1$/i.test(base) ? joinUrl(base, path) : joinUrl(base, `v1/${path}`);
}

/** How messages name the server: a custom base URL is not OpenAI, and says which server it is. */
export function providerLabel(base: string): string {
  const url = new URL(base);
  return url.hostname === 'api.openai.com' ? PROVIDER : `OpenAI-compatible server at ${url.host}`;
}

export function modelFor(request: GenerateRequest | undefined, config: ProviderConfig): string {
  return request?.model ?? config.model ?? DEFAULT_OPENAI_MODEL;
}

export function authHeaders(
  config: ProviderConfig,
  basic?: { username: string; password: string },
): Record<string, string> {
  if (config.apiKey !== undefined && config.apiKey !== '') return bearerHeader(config.apiKey);
  if (basic !== undefined) return basicHeader(basic.username, basic.password);
  return {};
}

export function secretsOf(config: ProviderConfig, basic?: { password: string }): string[] {
  return [config.apiKey, config.password, basic?.password].filter(
    (s): s is string => typeof s === 'string' && s !== '',
  );
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
