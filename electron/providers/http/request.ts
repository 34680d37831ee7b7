import { stringify } from 'lossless-json';
import { type CallScope, networkError } from './errors.js';

export interface SendInit {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Serialized as JSON with a JSON content type; a bigint (a 64-bit seed) is written as its exact digits. */
  json?: unknown;
  /** A prebuilt body with its content type (multipart/form-data); used when `json` is absent. */
  raw?: { bytes: Uint8Array; contentType: string };
  /** Overrides the scope's deadline signal (e.g. a short-lived cancel call after the job's signal fired). */
  signal?: AbortSignal;
}

/**
 * fetch() bound to the call's deadline, mapping thrown errors through `networkError`. Redirects are not followed:
 * a POST silently turned into a GET (or a key sent to another host) is worse than a clear error.
 */
export async function send(
  url: string,
  init: SendInit,
  scope: CallScope,
  what = 'before it answered',
): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  let body: string | Uint8Array | undefined;
  if (init.raw !== undefined && init.json === undefined) {
    headers['content-type'] = init.raw.contentType;
    body = init.raw.bytes;
  }
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    // lossless-json writes what JSON.stringify does, except that a bigint becomes its digits instead of throwing.
    body = stringify(init.json) ?? 'null';
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
