import { AppError } from '../../../shared/errors.js';

export interface BaseUrl {
  /** Scheme, host, port and path, without credentials or a trailing slash. */
  base: string;
  /** Credentials written into the URL (http://user:pass@host) move to a Basic header; fetch refuses them inline. */
  basic?: { username: string; password: string };
}

/** Parses a configured base URL (or the default) and rejects anything that is not plain http(s). */
export function parseBaseUrl(raw: string | undefined, fallback: string, provider: string): BaseUrl {
  const text = raw === undefined || raw.trim() === '' ? fallback : raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AppError('invalid_request', `The ${provider} address is not a valid URL. Use one like ${fallback}.`, {
      details: { field: 'baseUrl' },
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('invalid_request', `The ${provider} address must start with http:// or https://.`, {
      details: { field: 'baseUrl' },
    });
  }
  const basic =
    url.username === '' && url.password === ''
      ? undefined
      : { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  const base = url.toString().replace(/\/+$/, '');
  return basic === undefined ? { base } : { base, basic };
}

/** Joins a base and a path with exactly one slash, adding an encoded query string. */
export function joinUrl(base: string, path: string, query?: Record<string, string>): string {
  const url = `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  if (query === undefined) return url;
  return `${url}?${new URLSearchParams(query).toString()}`;
}

export function bearerHeader(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

export function basicHeader(username: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}` };
}
