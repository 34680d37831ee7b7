import { type AppError } from '../../../shared/errors.js';
import { readJson } from '../http/body.js';
import { sleep } from '../http/deadline.js';
import { type CallScope, malformedError, redact } from '../http/errors.js';
import { send } from '../http/request.js';
import { retryAfterMs } from '../http/status-errors.js';
import type { ProviderConfig, ProviderContext } from '../types.js';
import { type Endpoint, isRecord, jobUrl } from './connection.js';
import { afterAccept, jobFailed, runpodResponseError } from './errors.js';

export interface PollTiming {
  /** The first wait before asking again; each next wait is 1.5 times longer, up to `maxMs`. */
  firstMs: number;
  maxMs: number;
}

/** /status allows 2000 calls per 10 s per endpoint; a job polled every 1–5 s stays far below it. */
export const DEFAULT_POLL_TIMING: PollTiming = { firstMs: 1000, maxMs: 5000 };

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

function clean(text: string, scope: CallScope): string {
  return redact(text.replace(/\s+/g, ' ').trim(), scope.secrets);
}

function millis(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

/** RunPod keeps a /run result 30 minutes; a job it no longer knows is gone for good. */
export function jobGone(scope: CallScope, jobId: string): AppError {
  return jobFailed(
    `${scope.provider} no longer knows job ${jobId}: its result expired (RunPod keeps it 30 minutes after the job ` +
      `ends) or the job was never stored. Run the job again.`,
    { remoteGone: true },
  );
}

/**
 * What a FAILED job said: worker-comfyui's `error` ("Workflow validation failed: • Node 4 …", ComfyUI's own words)
 * with its `output.details`, or runpod-python's JSON of a handler exception (`error_message`).
 */
export function failureText(json: Record<string, unknown>, scope: CallScope): string {
  let said = typeof json.error === 'string' ? json.error.slice(0, 4000) : '';
  if (/^\s*\{/.test(said)) {
    try {
      const inner: unknown = JSON.parse(said);
      if (isRecord(inner) && typeof inner.error_message === 'string') said = inner.error_message;
    } catch {
      // Not JSON: quote it as it is.
    }
  }
  const output = isRecord(json.output) ? json.output : {};
  const details = Array.isArray(output.details)
    ? output.details.filter((d): d is string => typeof d === 'string').slice(0, 5)
    : [];
  const parts = [said, ...details].map(joinLines).filter((p) => p !== '');
  return clean(parts.join(' — '), scope);
}

/** worker-comfyui lists node errors one per line as "• Node 4 (errors): …" under a heading ending in ":". */
function joinLines(text: string): string {
  let out = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^\s*•\s*/, '').trim();
    if (line === '') continue;
    out = out === '' ? line : out.endsWith(':') ? `${out} ${line}` : `${out}; ${line}`;
  }
  return out;
}

function failedError(json: Record<string, unknown>, status: string, input: PollInput): AppError {
  const { scope, jobId, endpoint } = input;
  const p = scope.provider;
  if (status === 'FAILED') {
    const said = failureText(json, scope);
    return jobFailed(
      `${p}'s worker could not run the workflow${said === '' ? ' (FAILED, with no reason given).' : `: "${said}"`}`,
      { runpodStatus: status, ...(said === '' ? {} : { providerMessage: said }) },
    );
  }
  if (status === 'TIMED_OUT')
    return jobFailed(
      `${p} stopped job ${jobId} because it ran past the execution timeout (TIMED_OUT). Raise the timeout in ` +
        `settings or on endpoint ${endpoint.id}, or make the workflow lighter.`,
      { runpodStatus: status },
    );
  return jobFailed(`Job ${jobId} was cancelled on ${p} (from its console or another client), so it made no images.`, {
    runpodStatus: status,
  });
}

/**
 * Polls `/status/<id>` with back-off until the job ends (docs/hosted-protocols.md §2.2): IN_QUEUE is 'queued' (waiting
 * for a worker: a cold start takes minutes), IN_PROGRESS is 'generating' (worker-comfyui reports no steps). A 429
 * waits as long as RunPod says and asks again; a 404 or an answer without a status is a job RunPod no longer has.
 */
export async function pollUntilDone(input: PollInput): Promise<Completed> {
  const { endpoint, jobId, headers, config, context, scope, timing } = input;
  const url = jobUrl(endpoint, 'status', jobId);
  let wait = timing.firstMs;
  let started = false;
  const traced = new Set<string>();
  for (let poll = 1; ; poll += 1) {
    const response = await send(url, { headers }, scope, 'while polling the job');
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
    if (status === 'FAILED' || status === 'TIMED_OUT' || status === 'CANCELLED') throw failedError(json, status, input);
    if (status === 'IN_QUEUE') {
      context.onProgress({ stage: 'queued' });
      if (!traced.has(status)) {
        traced.add(status);
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
