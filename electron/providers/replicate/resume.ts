import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, abortedError, networkError } from '../http/errors.js';
import { parseBaseUrl } from '../http/url.js';
import { runJob } from '../skeleton/run-job.js';
import type { ProviderConfig, ProviderContext, ProviderOutput, RemoteTask } from '../types.js';
import { cancelPrediction } from './cancel.js';
import { PROVIDER, REPLICATE_BASE_URL, modelFor, secretsOf } from './connection.js';
import { RULES, familyOf } from './models.js';
import { collectOutputs } from './outputs.js';
import { type PollTiming, pollUntilDone } from './poll.js';
import type { Prediction } from './prediction.js';

/**
 * Collects a prediction an earlier run created (generate.ts stored its id and URLs): polls until it ends, then
 * downloads its outputs. Nothing is created; a cancel or timeout cancels the prediction as a fresh run would.
 */
export async function resume(
  remote: RemoteTask,
  request: GenerateRequest,
  config: ProviderConfig,
  context: ProviderContext,
  timing: PollTiming,
): Promise<ProviderOutput> {
  const { base } = parseBaseUrl(config.baseUrl, REPLICATE_BASE_URL, PROVIDER);
  if (remote.id === '') {
    throw new AppError('provider_error', `The ${PROVIDER} prediction has no id stored; it cannot be found again.`, {
      retryable: false,
      details: { phase: 'after_send', remoteGone: true },
    });
  }
  const deadline = new Deadline(context.signal, request.timeoutMs ?? config.timeoutMs);
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: secretsOf(config) };
  // Not yet asked about: the first poll says where it is.
  const known: Prediction = { id: remote.id, status: 'starting', output: null, dataRemoved: false };
  if (remote.data?.getUrl !== undefined) known.getUrl = remote.data.getUrl;
  if (remote.data?.cancelUrl !== undefined) known.cancelUrl = remote.data.cancelUrl;

  return runJob<null, Prediction, Prediction>({
    connect: () => Promise.resolve(null),
    submit() {
      context.trace('resume', `Collecting ${PROVIDER} prediction ${remote.id}, accepted before Atelier stopped.`, {
        predictionId: remote.id,
      });
      context.onProgress({ stage: 'generating' });
      return Promise.resolve(known);
    },
    await: (prediction) => pollUntilDone(prediction, base, config, context, scope, timing, true),
    collect: (finished) =>
      collectOutputs(
        finished,
        { asked: request.seed, takesSeed: RULES[familyOf(modelFor(request, config))].seed },
        config,
        context,
        scope,
      ),
    cancel: {
      signal: deadline.signal,
      async stop(prediction) {
        await cancelPrediction(prediction, base, config, context);
        return abortedError(scope, true);
      },
    },
    fail: (error) => (error instanceof AppError ? error : networkError(error, scope, `while ${PROVIDER} was working`)),
    close: () => deadline.dispose(),
  });
}
