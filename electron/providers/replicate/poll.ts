import { readJson } from '../http/body.js';
import { sleep } from '../http/deadline.js';
import type { CallScope } from '../http/errors.js';
import { send } from '../http/request.js';
import { retryAfterMs } from '../http/status-errors.js';
import { joinUrl } from '../http/url.js';
import type { ProviderConfig, ProviderContext } from '../types.js';
import { authHeaders, mayCarryKey } from './connection.js';
import { afterAccept, endedError, failedError, replicateResponseError } from './errors.js';
import { progressFromLogs } from './logs.js';
import { type Prediction, TERMINAL_STATUSES, readPrediction } from './prediction.js';

export interface PollTiming {
  /** The first wait before asking again; each next wait is 1.5 times longer, up to `maxMs`. */
  firstMs: number;
  maxMs: number;
  /** How long the create call asks Replicate to hold for the result (`Prefer: wait=N`, 1–60 s). */
  syncWaitSeconds: number;
}

/**
 * Polls start at 0.5 s. The create call holds at most 10 s: the prediction id only arrives with its answer, so a
 * longer hold would leave paid work that a crash could not find again and a cancel could not stop.
 */
export const DEFAULT_POLL_TIMING: PollTiming = { firstMs: 500, maxMs: 4000, syncWaitSeconds: 10 };

/** Polls in a row that may answer 5xx before the job ends: the prediction itself is still running. */
const POLL_5XX_TOLERATED = 3;

/** Where a prediction is polled: its own `urls.get` when that may carry the token, else built from the base URL. */
export function pollUrlOf(id: string, getUrl: string | undefined, base: string): string {
  if (getUrl !== undefined && mayCarryKey(getUrl, base)) return getUrl;
  return joinUrl(base, `v1/predictions/${encodeURIComponent(id)}`);
}

/** Where a prediction is cancelled, chosen the same way. */
export function cancelUrlOf(id: string, cancelUrl: string | undefined, base: string): string {
  if (cancelUrl !== undefined && mayCarryKey(cancelUrl, base)) return cancelUrl;
  return joinUrl(base, `v1/predictions/${encodeURIComponent(id)}/cancel`);
}

/** Progress from a prediction: starting is queued (or booting), processing reads tqdm lines from the logs. */
export function reportProgress(prediction: Prediction, context: ProviderContext): void {
  if (prediction.status === 'starting') {
    context.onProgress({ stage: 'queued' });
    return;
  }
  if (prediction.status !== 'processing') return;
  const progress = progressFromLogs(prediction.logs);
  context.onProgress(
    progress === undefined
      ? { stage: 'generating' }
      : { stage: 'generating', fraction: progress.fraction, step: progress.step, steps: progress.steps },
  );
}

/** A prediction that ended other than succeeded, as the job's error. */
export function terminalError(prediction: Prediction, scope: CallScope): Error {
  const { id, status } = prediction;
  if (status === 'failed') return failedError(scope, prediction.error, id);
  if (status === 'canceled')
    return endedError(scope, `${scope.provider} prediction ${id} was cancelled outside Atelier (or by its deadline).`, {
      replicateStatus: status,
      predictionId: id,
    });
  return endedError(
    scope,
    `${scope.provider} aborted prediction ${id} before it started: it waited past its deadline. Run the job again.`,
    { replicateStatus: status, predictionId: id },
  );
}

/** Replicate no longer knows the prediction (a 404 on its URL). */
export function predictionGone(scope: CallScope, id: string): Error {
  return endedError(
    scope,
    `${scope.provider} no longer knows prediction ${id}: it expired or belongs to another account. Run the job again.`,
    { predictionId: id, remoteGone: true },
  );
}

/**
 * Polls until the prediction is terminal; returns it when it succeeded, throws its ending in words otherwise.
 * `askAtOnce` skips the first wait (a resumed prediction, whose state nobody has seen yet).
 */
export async function pollUntilDone(
  first: Prediction,
  base: string,
  config: ProviderConfig,
  context: ProviderContext,
  scope: CallScope,
  timing: PollTiming,
  askAtOnce = false,
): Promise<Prediction> {
  const url = pollUrlOf(first.id, first.getUrl, base);
  let prediction = first;
  let wait = timing.firstMs;
  let waitFirst = !askAtOnce;
  let failedPolls = 0;
  for (;;) {
    if (waitFirst) {
      if (prediction.status === 'succeeded') return prediction;
      if (TERMINAL_STATUSES.has(prediction.status)) throw terminalError(prediction, scope);
      await sleep(wait, scope.deadline.signal);
      wait = Math.min(timing.maxMs, Math.round(wait * 1.5));
    }
    waitFirst = true;
    const response = await send(url, { headers: authHeaders(config) }, scope, 'while polling the prediction');
    if (response.status === 429) {
      // Replicate is busy answering polls: wait as long as it says and ask again; the prediction itself still runs.
      await response.body?.cancel().catch(() => undefined);
      await sleep(retryAfterMs(response.headers) ?? wait, scope.deadline.signal);
      continue;
    }
    if (response.status === 404) {
      await response.body?.cancel().catch(() => undefined);
      throw predictionGone(scope, prediction.id);
    }
    if (response.status >= 500 && (failedPolls += 1) <= POLL_5XX_TOLERATED) {
      // A gateway blip while the prediction runs on: asking again later beats failing work that is being paid for.
      await response.body?.cancel().catch(() => undefined);
      continue;
    }
    if (response.status !== 200)
      throw afterAccept(await replicateResponseError(response, scope, config.maxResponseBytes));
    failedPolls = 0;
    prediction = readPrediction(
      await readJson(response, config.maxResponseBytes, scope, 'the prediction'),
      scope,
      'a prediction',
    );
    reportProgress(prediction, context);
  }
}
