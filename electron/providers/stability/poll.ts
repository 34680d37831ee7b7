import { AppError } from '../../../shared/errors.js';
import { sleep } from '../http/deadline.js';
import type { CallScope } from '../http/errors.js';
import { send } from '../http/request.js';
import { retryAfterMs } from '../http/status-errors.js';
import { joinUrl } from '../http/url.js';
import type { ProviderConfig, ProviderContext } from '../types.js';
import { authHeaders } from './connection.js';
import { afterAccept, stabilityResponseError } from './errors.js';

export interface PollTiming {
  /** The first wait before asking again; each next wait is 1.5 times longer, up to `maxMs`. */
  firstMs: number;
  maxMs: number;
}

/** Stability suggests polling about every 10 s; a creative upscale takes tens of seconds. */
export const DEFAULT_POLL_TIMING: PollTiming = { firstMs: 2000, maxMs: 10_000 };

/** Result ids are hex; anything else is not put into a URL. */
const RESULT_ID = /^[A-Za-z0-9_-]{1,200}$/;

export function resultGone(scope: CallScope, id: string, why: string): AppError {
  return new AppError(
    'provider_error',
    `${scope.provider} no longer has result ${id.slice(0, 80)} (${why}): results are kept for 24 hours. Run the ` +
      `job again.`,
    { retryable: false, details: { phase: 'after_send', remoteGone: true, stabilityResultId: id.slice(0, 200) } },
  );
}

/**
 * Polls GET /v2beta/results/{id} (docs/hosted-protocols.md §1.5): 202 while in progress, 200 with the image, 404 once
 * Stability no longer has it. It gives no numeric progress, so each 202 is reported as one more step of waiting.
 */
export async function pollResult(
  id: string,
  base: string,
  config: ProviderConfig,
  context: ProviderContext,
  scope: CallScope,
  timing: PollTiming,
): Promise<Response> {
  if (!RESULT_ID.test(id)) throw resultGone(scope, id, 'the stored id is not one Stability gives');
  const url = joinUrl(base, `v2beta/results/${id}`);
  let wait = timing.firstMs;
  for (let poll = 1; ; poll += 1) {
    const response = await send(
      url,
      { headers: { ...authHeaders(config), accept: 'image/*' } },
      scope,
      'while polling for the result',
    );
    if (response.status === 200) return response;
    if (response.status === 202 || response.status === 429 || response.status === 404)
      await response.body?.cancel().catch(() => undefined);
    if (response.status === 202) {
      context.onProgress({ stage: 'generating', step: poll });
      await sleep(wait, scope.deadline.signal);
      wait = Math.min(timing.maxMs, Math.round(wait * 1.5));
      continue;
    }
    if (response.status === 429) {
      // Polls count against the same rate limit; the work itself still runs.
      await sleep(Math.max(wait, retryAfterMs(response.headers) ?? 0), scope.deadline.signal);
      continue;
    }
    if (response.status === 404) throw resultGone(scope, id, 'HTTP 404');
    throw afterAccept(await stabilityResponseError(response, scope, config.maxResponseBytes));
  }
}
