import { AppError } from '../../../shared/errors.js';
import { readBounded, readJson } from '../http/body.js';
import { sleep } from '../http/deadline.js';
import { type CallScope, malformedError, redact } from '../http/errors.js';
import { toImage } from '../http/image.js';
import { send } from '../http/request.js';
import { retryAfterMs } from '../http/status-errors.js';
import type { GeneratedImage, ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import { authHeaders, isRecord, mayCarryKey } from './connection.js';
import { afterAccept, bflResponseError } from './errors.js';

export interface PollTiming {
  /** The first wait before asking again; each next wait is 1.5 times longer, up to `maxMs`. */
  firstMs: number;
  maxMs: number;
}

export const DEFAULT_POLL_TIMING: PollTiming = { firstMs: 500, maxMs: 5000 };

/** The terminal statuses of docs/hosted-protocols.md §1.2 other than Ready, in words. */
const MODERATED: Record<string, string> = {
  'Request Moderated': 'the prompt or input image (Request Moderated)',
  'Content Moderated': 'the generated image (Content Moderated)',
};

export interface ReadyResult {
  sample: string;
  seed?: number;
}

function failed(scope: CallScope, message: string, details: Record<string, unknown>): AppError {
  return new AppError('provider_error', message, { retryable: false, details: { phase: 'after_send', ...details } });
}

/** Polls BFL's own `polling_url` with back-off until Ready, reporting Pending as progress; never builds the URL. */
export async function pollUntilReady(
  pollingUrl: string,
  base: string,
  config: ProviderConfig,
  context: ProviderContext,
  scope: CallScope,
  timing: PollTiming,
): Promise<ReadyResult> {
  const headers = mayCarryKey(pollingUrl, base) ? authHeaders(config) : {};
  let wait = timing.firstMs;
  for (let poll = 1; ; poll += 1) {
    const response = await send(pollingUrl, { headers }, scope, 'while polling for the result');
    if (response.status === 429) {
      // BFL is busy answering polls: wait as long as it says and ask again; the task itself still runs.
      await response.body?.cancel().catch(() => undefined);
      await sleep(Math.max(wait, retryAfterMs(response.headers) ?? 0), scope.deadline.signal);
      continue;
    }
    if (response.status === 404) {
      await response.body?.cancel().catch(() => undefined);
      throw taskNotFound(scope);
    }
    if (response.status !== 200) throw afterAccept(await bflResponseError(response, scope, config.maxResponseBytes));
    const json = await readJson(response, config.maxResponseBytes, scope, 'the polling answer');
    if (!isRecord(json) || typeof json.status !== 'string') throw malformedError(scope, 'a poll without a status');
    const status = json.status.slice(0, 60);
    if (status === 'Ready') return readyResult(json, scope);
    if (status === 'Pending') {
      context.onProgress({ stage: 'generating', step: poll });
      await sleep(wait, scope.deadline.signal);
      wait = Math.min(timing.maxMs, Math.round(wait * 1.5));
      continue;
    }
    const moderated = MODERATED[status];
    if (moderated !== undefined) {
      throw failed(
        scope,
        `${scope.provider} moderation blocked ${moderated}. Rephrase the prompt or use another image.`,
        {
          bflStatus: status,
        },
      );
    }
    if (status === 'Task not found') throw taskNotFound(scope);
    const said = typeof json.error === 'string' ? redact(json.error, scope.secrets) : '';
    throw failed(scope, `${scope.provider} could not make the image (${status})${said === '' ? '.' : `: "${said}"`}`, {
      bflStatus: status,
      ...(said === '' ? {} : { providerMessage: said }),
    });
  }
}

// BFL says so as a status, or as a 404 from the polling URL.
function taskNotFound(scope: CallScope): AppError {
  return failed(
    scope,
    `${scope.provider} no longer knows this task (Task not found): it expired or was never stored. Run the job again.`,
    { bflStatus: 'Task not found', remoteGone: true },
  );
}

function readyResult(json: Record<string, unknown>, scope: CallScope): ReadyResult {
  const result = isRecord(json.result) ? json.result : undefined;
  if (typeof result?.sample !== 'string') throw malformedError(scope, 'a Ready answer without result.sample');
  const out: ReadyResult = { sample: result.sample };
  if (typeof result.seed === 'number' && Number.isSafeInteger(result.seed) && result.seed >= 0) out.seed = result.seed;
  return out;
}

/** Downloads the short-lived signed `sample` URL at once, without the key, within the response-size cap. */
export async function downloadSample(
  sample: string,
  config: ProviderConfig,
  context: ProviderContext,
  scope: CallScope,
): Promise<GeneratedImage> {
  let url: URL;
  try {
    url = new URL(sample);
  } catch {
    throw malformedError(scope, 'a result link that is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw malformedError(scope, 'a result link that is not http');
  context.onProgress({ stage: 'downloading' });
  const response = await send(url.href, { headers: { accept: 'image/*' } }, scope, 'while downloading the result');
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw failed(
      scope,
      `${scope.provider} made the image, but its download link answered HTTP ${response.status} (the link lasts ` +
        `about ten minutes and may have expired). Run the job again.`,
      { status: response.status, remoteGone: true },
    );
  }
  const bytes = await readBounded(response, config.maxResponseBytes, scope, 'the image');
  return toImage(bytes, scope, 'the image');
}

/** Downloads a Ready task's sample and shapes the job's output (a fresh run and a resumed one end the same way). */
export async function collectSample(
  ready: ReadyResult,
  taskId: string,
  config: ProviderConfig,
  context: ProviderContext,
  scope: CallScope,
): Promise<ProviderOutput> {
  const image = await downloadSample(ready.sample, config, context, scope);
  context.onProgress({ stage: 'done', fraction: 1 });
  const output: ProviderOutput = { images: [image], info: { bflTaskId: taskId } };
  if (ready.seed !== undefined) output.seed = ready.seed;
  return output;
}
