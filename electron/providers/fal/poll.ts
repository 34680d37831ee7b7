import { AppError } from '../../../shared/errors.js';
import { readJson } from '../http/body.js';
import { sleep } from '../http/deadline.js';
import { type CallScope, malformedError, redact } from '../http/errors.js';
import { send } from '../http/request.js';
import { retryAfterMs } from '../http/status-errors.js';
import type { ProviderConfig, ProviderContext } from '../types.js';
import { authHeaders, isRecord, mayCarryKey } from './connection.js';
import { afterAccept, falResponseError } from './errors.js';
import { stepOfLogs } from './log-steps.js';

export interface PollTiming {
  /** The first wait before asking again; each next wait is 1.5 times longer, up to `maxMs`. */
  firstMs: number;
  maxMs: number;
}

export const DEFAULT_POLL_TIMING: PollTiming = { firstMs: 500, maxMs: 3000 };

/** One accepted fal request and the URLs fal returned for it (or built from the model id when it left one out). */
export interface FalRequest {
  id: string;
  model: string;
  statusUrl: string;
  responseUrl: string;
  cancelUrl: string;
}

/** At most this many of a status's log lines are kept (fal sends every line so far with each status). */
const LOG_LINES = 200;

function failed(message: string, details: Record<string, unknown>): AppError {
  return new AppError('provider_error', message, { retryable: false, details: { phase: 'after_send', ...details } });
}

/** fal no longer knows the request (404 on its status or result): it expired, or it was never stored. */
export function requestGone(scope: CallScope, requestId: string, where: string): AppError {
  return failed(
    `${scope.provider} no longer knows request ${requestId.slice(0, 80)} (HTTP 404 ${where}): it expired or was never ` +
      `stored. Run the job again.`,
    { falRequestId: requestId, remoteGone: true },
  );
}

function withLogs(statusUrl: string): string {
  try {
    const url = new URL(statusUrl);
    url.searchParams.set('logs', '1');
    return url.href;
  } catch {
    return statusUrl;
  }
}

function logMessages(json: Record<string, unknown>): string[] {
  if (!Array.isArray(json.logs)) return [];
  const lines = json.logs.length > LOG_LINES ? json.logs.slice(-LOG_LINES) : json.logs;
  return lines.map((entry) => (isRecord(entry) && typeof entry.message === 'string' ? entry.message : ''));
}

/**
 * Polls the request's status URL with back-off until COMPLETED: IN_QUEUE reports 'queued' (its position goes to the
 * trace), IN_PROGRESS 'generating' with the step a runner log line counts ("12/28"). A COMPLETED answer that carries
 * an `error` ends the job with it; the result itself is fetched by result.ts.
 */
export async function pollUntilCompleted(
  request: FalRequest,
  base: string,
  config: ProviderConfig,
  context: ProviderContext,
  scope: CallScope,
  timing: PollTiming,
): Promise<void> {
  const headers = mayCarryKey(request.statusUrl, base) ? authHeaders(config) : {};
  const url = withLogs(request.statusUrl);
  let wait = timing.firstMs;
  let lastPosition: number | undefined;
  let started = false;
  for (;;) {
    const response = await send(url, { headers }, scope, 'while asking for the status');
    if (response.status === 429) {
      // fal is busy answering status calls: wait as long as it says and ask again; the request itself still runs.
      await response.body?.cancel().catch(() => undefined);
      await sleep(Math.max(wait, retryAfterMs(response.headers) ?? 0), scope.deadline.signal);
      continue;
    }
    if (response.status === 404) {
      await response.body?.cancel().catch(() => undefined);
      throw requestGone(scope, request.id, 'from its status');
    }
    if (response.status !== 200 && response.status !== 202) {
      throw afterAccept(
        await falResponseError(response, scope, config.maxResponseBytes, { model: request.model, phase: 'after_send' }),
      );
    }
    const json = await readJson(response, config.maxResponseBytes, scope, 'the status answer');
    if (!isRecord(json) || typeof json.status !== 'string') throw malformedError(scope, 'a status without a status');
    const status = json.status.slice(0, 40);
    if (status === 'IN_QUEUE') {
      const position =
        typeof json.queue_position === 'number' && Number.isSafeInteger(json.queue_position) && json.queue_position >= 0
          ? json.queue_position
          : undefined;
      if (position !== undefined && lastPosition === undefined) {
        context.trace('queue', `Waiting in ${scope.provider}'s queue at position ${position}.`, {
          queuePosition: position,
        });
      }
      if (position !== undefined) lastPosition = position;
      context.onProgress({ stage: 'queued' });
    } else if (status === 'IN_PROGRESS') {
      if (!started) {
        started = true;
        context.trace('running', `${scope.provider} started request ${request.id}.`);
      }
      const step = stepOfLogs(logMessages(json));
      context.onProgress(
        step === null
          ? { stage: 'generating' }
          : { stage: 'generating', step: step.step, steps: step.steps, fraction: step.step / step.steps },
      );
    } else if (status === 'COMPLETED') {
      const error = typeof json.error === 'string' ? redact(json.error.slice(0, 500), scope.secrets) : '';
      if (error !== '') {
        const type = typeof json.error_type === 'string' ? json.error_type.slice(0, 60) : undefined;
        throw failed(`${scope.provider} could not make the image: "${error}"`, {
          falRequestId: request.id,
          providerMessage: error,
          ...(type === undefined ? {} : { providerCode: type }),
        });
      }
      return;
    } else if (status === 'FAILED') {
      const error = typeof json.error === 'string' ? redact(json.error.slice(0, 500), scope.secrets) : '';
      throw failed(`${scope.provider} could not make the image (FAILED)${error === '' ? '.' : `: "${error}"`}`, {
        falRequestId: request.id,
        ...(error === '' ? {} : { providerMessage: error }),
      });
    } else if (status === 'CANCELED' || status === 'CANCELLED') {
      throw failed(`${scope.provider} says request ${request.id} was cancelled.`, { falRequestId: request.id });
    } else {
      throw failed(`${scope.provider} answered an unknown status "${redact(status, scope.secrets)}".`, {
        falRequestId: request.id,
      });
    }
    await sleep(wait, scope.deadline.signal);
    wait = Math.min(timing.maxMs, Math.round(wait * 1.5));
  }
}
