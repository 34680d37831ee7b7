import { basicHeader, parseBaseUrl } from '../http/url.js';
import type { ProviderConfig } from '../types.js';

export const A1111_BASE_URL = 'http://127.0.0.1:7860';
export const PROVIDER = 'A1111';

export interface Credentials {
  base: string;
  headers: Record<string, string>;
  secrets: string[];
}

/** The base URL and Basic auth (from the settings, else from the URL), with the secrets errors must not show. */
export function credentials(config: ProviderConfig): Credentials {
  const { base, basic } = parseBaseUrl(config.baseUrl, A1111_BASE_URL, PROVIDER);
  const username = config.username ?? basic?.username;
  const password = config.password ?? basic?.password;
  const headers = username !== undefined && username !== '' ? basicHeader(username, password ?? '') : {};
  return {
    base,
    headers,
    secrets: [password, config.apiKey].filter((s): s is string => typeof s === 'string' && s !== ''),
  };
}
