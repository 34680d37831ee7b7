import { basicHeader, parseBaseUrl } from '../http/url.js';
import type { ProviderConfig } from '../types.js';

export const COMFYUI_BASE_URL = 'http://127.0.0.1:8188';
export const PROVIDER = 'ComfyUI';

/** Where one ComfyUI server answers, with the headers every call carries and the secrets no message may show. */
export interface Connection {
  base: string;
  ws: string;
  headers: Record<string, string>;
  secrets: string[];
}

export function connection(config: ProviderConfig): Connection {
  const { base, basic } = parseBaseUrl(config.baseUrl, COMFYUI_BASE_URL, PROVIDER);
  const username = config.username ?? basic?.username;
  const password = config.password ?? basic?.password;
  // ComfyUI has no auth of its own; a proxy in front of it may want Basic or a Bearer key.
  const headers: Record<string, string> =
    username !== undefined && username !== ''
      ? basicHeader(username, password ?? '')
      : config.apiKey
        ? { authorization: `Bearer ${config.apiKey}` }
        : {};
  return {
    base,
    ws: `${base.replace(/^http/, 'ws')}/ws`,
    headers,
    secrets: [password, config.apiKey].filter((s): s is string => typeof s === 'string' && s !== ''),
  };
}
