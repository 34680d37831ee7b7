import { AppError } from '../../../shared/errors.js';
import { readJson } from '../http/body.js';
import { sleep } from '../http/deadline.js';
import { type CallScope, malformedError } from '../http/errors.js';
import { send } from '../http/request.js';
import { retryAfterMs } from '../http/status-errors.js';
import type { ProviderConfig, ProviderContext } from '../types.js';
import { type Endpoint, isRecord, jobUrl } from './connection.js';
import { afterAccept, runpodResponseError } from './errors.js';
import { failedError, jobGone } from './job-failures.js';

export interface PollTiming {
  /** The first wait before asking again; each next wait is 1.5 times longer, up to `maxMs`. */
  firstMs: number;
  maxMs: number;
}

/** /status allows 2000 calls per 10 s per endpoint; a job polled every 1–5 s stays far below it. */
export const DEFAULT_POLL_TIMING: PollTiming = { firstMs: 1000, maxMs: 5000 };

/** Status calls that may fail in a row (a 502 from RunPod's edge, a dropped connection) before the job ends. */
const MAX_FAILED_POLLS = 3;
const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);

/** A COMPLETED job as /status gave it. */
export interface Completed {
  output: unknown;
  delayTimeMs?: number;
  executionTimeMs?: number;
}

export interface PollInput {
  endpoint: Endpoint;
  jobId: string;
  headers: Record<string, string>;
  config: ProviderConfig;
  context: ProviderContext;
  scope: CallScope;
  timing: PollTiming;
}

function millis(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

/** One /status call: its answer, or the failure of a call that may pass if asked again (the job runs on regardless). */
async function askStatus(url: string, input: PollInput): Promise<Response | AppError> {
  const { headers, scope, endpoint } = input;
  let response: Response;
  try {
    response = await send(url, { headers }, scope, 'while polling the job');
  } catch (error) {
    // send() throws only AppErrors of the network; a cancel or timeout is not a failure to ride out.
    if (scope.deadline.signal.aborted || !(error instanceof AppError)) throw error;
    return afterAccept(error);
  }
  if (!TRANSIENT_STATUSES.has(response.status)) return response;
  return afterAccept(await runpodResponseError(response, scope, endpoint.id));
}

/**
 * Polls `/status/<id>` with back-off until the job ends (docs/hosted-protocols.md §2.2): IN_QUEUE is 'queued' (waiting
 * for a worker: a cold start takes minutes), IN_PROGRESS is 'generating' (worker-comfyui reports no steps). A 429
 * waits as long as RunPod says and asks again, as do up to three 5xx or dropped calls in a row (the paid job runs on
 * meanwhile); a 404 or an answer without a status is a job RunPod no longer has.
 */
export async function pollUntilDone(input: PollInput): Promise<Completed> {
  const { endpoint, jobId, config, context, scope, timing } = input;
  const url = jobUrl(endpoint, 'status', jobId);
  let wait = timing.firstMs;
  let started = false;
  let queuedTraced = false;
  let failedInARow = 0;
  for (let poll = 1; ; poll += 1) {
    const response = await askStatus(url, input);
    if (response instanceof AppError) {
      failedInARow += 1;
      if (failedInARow > MAX_FAILED_POLLS) throw response;
      context.trace('warning', `Asking ${scope.provider} about job ${jobId} failed; asking again. ${response.message}`);
      await sleep(wait, scope.deadline.signal);
      wait = Math.min(timing.maxMs, Math.round(wait * 1.5));
      continue;
    }
    failedInARow = 0;
    if (response.status === 429) {
      await response.body?.cancel().catch(() => undefined);
      await sleep(Math.max(wait, retryAfterMs(response.headers) ?? 0), scope.deadline.signal);
      continue;
    }
    if (response.status === 404) {
      await response.body?.cancel().catch(() => undefined);
      throw jobGone(scope, jobId);
    }
    if (response.status !== 200) throw afterAccept(await runpodResponseError(response, scope, endpoint.id));
    const json = await readJson(response, config.maxResponseBytes, scope, 'the job status');
    if (!isRecord(json)) throw malformedError(scope, 'a job status that is not an object');
    if (typeof json.status !== 'string') throw jobGone(scope, jobId);
    const status = json.status.slice(0, 40);
    if (status === 'COMPLETED') {
      const done: Completed = { output: json.output };
      const delay = millis(json.delayTime);
      const execution = millis(json.executionTime);
      if (delay !== undefined) done.delayTimeMs = delay;
      if (execution !== undefined) done.executionTimeMs = execution;
      return done;
    }
    if (status === 'FAILED' || status === 'TIMED_OUT' || status === 'CANCELLED')
      throw failedError(json, status, { scope, jobId, endpoint });
    if (status === 'IN_QUEUE') {
      context.onProgress({ stage: 'queued' });
      if (!queuedTraced) {
        queuedTraced = true;
        context.trace(
          'queued',
          `${scope.provider} job ${jobId} is waiting for a worker (a cold start can take minutes).`,
        );
      }
    } else {
      if (!started) {
        started = true;
        const delay = millis(json.delayTime);
        context.trace(
          'started',
          `A ${scope.provider} worker took job ${jobId}` +
            (delay === undefined ? '.' : ` after ${(delay / 1000).toFixed(1)} s in the queue.`),
          { runpodStatus: status, ...(delay === undefined ? {} : { delayTimeMs: delay }) },
        );
      }
      // IN_PROGRESS, or a state RunPod added later (its docs also name RUNNING): still working.
      context.onProgress({ stage: 'generating', step: poll });
    }
    await sleep(wait, scope.deadline.signal);
    wait = Math.min(timing.maxMs, Math.round(wait * 1.5));
  }
}
