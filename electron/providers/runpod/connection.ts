import { AppError } from '../../../shared/errors.js';
import { bearerHeader, joinUrl, parseBaseUrl } from '../http/url.js';
import type { ProviderConfig } from '../types.js';
import { hasKey } from '../http/api-key.js';
export { hasKey, isRecord } from '../http/api-key.js';
// The key as stored and trimmed: what redaction hides.
export { keySecrets as secretsOf } from '../http/api-key.js';

export const PROVIDER = 'RunPod';
/** What the settings' address looks like: the endpoint's own URL, its id last (docs/hosted-protocols.md §2.2). */
export const RUNPOD_BASE_URL_EXAMPLE = 'https://api.runpod.ai/v2/<endpoint-id>';
const RUNPOD_HOST = 'api.runpod.ai';

/** One RunPod serverless endpoint: where its routes answer and its id for messages. */
export interface Endpoint {
  /** `https://api.runpod.ai/v2/<id>` (or a relay's or the loopback fake's equivalent), without a trailing slash. */
  base: string;
  id: string;
}

function invalid(message: string): AppError {
  return new AppError('invalid_request', message, { details: { field: 'baseUrl', phase: 'before_accept' } });
}

/** Routes a person may paste with the endpoint's address (the console shows `…/v2/<id>/run`). */
const ROUTES = new Set(['run', 'runsync', 'health', 'status', 'cancel', 'stream', 'purge-queue']);

/**
 * The endpoint from the settings' base URL. RunPod has no default endpoint (each person deploys their own), so an
 * empty address is an error; on api.runpod.ai the path must be /v2/<endpoint-id> (a pasted route after it is dropped).
 */
export function endpointOf(config: ProviderConfig): Endpoint {
  if (config.baseUrl === undefined || config.baseUrl.trim() === '')
    throw invalid(`Set the RunPod endpoint's address in settings, like ${RUNPOD_BASE_URL_EXAMPLE}.`);
  const { base } = parseBaseUrl(config.baseUrl, RUNPOD_BASE_URL_EXAMPLE, PROVIDER);
  const url = new URL(base);
  const parts = url.pathname.split('/').filter((part) => part !== '');
  if (url.hostname !== RUNPOD_HOST) return { base, id: parts.at(-1) ?? url.host };
  if (parts.length >= 3 && ROUTES.has(parts[2]!)) parts.length = 2;
  const id = parts[1] ?? '';
  if (parts.length !== 2 || parts[0] !== 'v2' || !/^[A-Za-z0-9_-]{1,100}$/.test(id))
    throw invalid(`The RunPod address must name the endpoint, like ${RUNPOD_BASE_URL_EXAMPLE}.`);
  return { base: `${url.origin}/v2/${id}`, id };
}

/** RunPod takes `Authorization: Bearer <key>` (worker-comfyui's README, runpod-python) as well as the bare key. */
export function authHeaders(config: ProviderConfig): Record<string, string> {
  return hasKey(config) ? bearerHeader(config.apiKey!.trim()) : {};
}

/** A route of the endpoint with the job id as one encoded path segment (an id from disk can hold anything). */
export function jobUrl(endpoint: Endpoint, route: 'status' | 'cancel', jobId: string): string {
  return joinUrl(endpoint.base, `${route}/${encodeURIComponent(jobId)}`);
}

/**
 * The key goes to a stored endpoint (resume) only when it is the configured one or RunPod's own over https: a record
 * edited on disk must not be able to send it elsewhere.
 */
export function mayCarryKey(stored: string, configured: string): boolean {
  let url: URL;
  try {
    url = new URL(stored);
  } catch {
    return false;
  }
  if (url.origin === new URL(configured).origin) return true;
  return url.protocol === 'https:' && url.hostname === RUNPOD_HOST;
}
