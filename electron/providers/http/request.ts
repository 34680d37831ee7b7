import { type CallScope, networkError } from './errors.js';

export interface SendInit {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Serialized as JSON with a JSON content type. */
  json?: unknown;
  /** Overrides the scope's deadline signal (e.g. a short-lived cancel call after the job's signal fired). */
  signal?: AbortSignal;
}

/**
 * fetch() bound to the call's deadline, mapping thrown errors through `networkError`. Redirects are not followed:
 * a POST silently turned into a GET (or a key sent to another host) is worse than a clear error.
 */
export async function send(url: string, init: SendInit, scope: CallScope, what = 'before it answered'): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  let body: string | undefined;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  }
  try {
    return await fetch(url, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      ...(body === undefined ? {} : { body }),
      signal: init.signal ?? scope.deadline.signal,
      redirect: 'manual',
    });
  } catch (error) {
    throw networkError(error, scope, what);
  }
}
