import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, networkError } from '../http/errors.js';
import { parseBaseUrl } from '../http/url.js';
import { runJob } from '../skeleton/run-job.js';
import type { ProviderConfig, ProviderContext, ProviderOutput, RemoteTask } from '../types.js';
import { cancelRequest } from './cancel.js';
import { FAL_QUEUE_URL, PROVIDER, modelFor, secretsOf } from './connection.js';
import { type FalRequest, type PollTiming, pollUntilCompleted } from './poll.js';
import { queueUrlsFor } from './queue-paths.js';
import { requestOf } from './remote.js';
import { collectResult } from './result.js';

/**
 * Collects a request an earlier run submitted (generate.ts stored its id, model id and URLs): polls its status, then
 * fetches and downloads the result. Nothing is submitted; a cancel still PUTs cancel_url.
 */
export async function resume(
  remote: RemoteTask,
  request: GenerateRequest,
  config: ProviderConfig,
  context: ProviderContext,
  timing: PollTiming,
): Promise<ProviderOutput> {
  const { base } = parseBaseUrl(config.baseUrl, FAL_QUEUE_URL, PROVIDER);
  let accepted: FalRequest;
  try {
    accepted = requestOf(remote, modelFor(request, config), (model) => queueUrlsFor(base, model, remote.id));
  } catch {
    throw new AppError(
      'provider_error',
      `${PROVIDER} request ${remote.id.slice(0, 80)} has no usable model id or URLs stored; it cannot be found again.`,
      { retryable: false, details: { phase: 'after_send', remoteGone: true } },
    );
  }
  const deadline = new Deadline(context.signal, request.timeoutMs ?? config.timeoutMs);
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: secretsOf(config) };
  return runJob<null, FalRequest, FalRequest>({
    connect: () => Promise.resolve(null),
    submit() {
      context.trace('resume', `Collecting ${PROVIDER} request ${accepted.id}, accepted before Atelier stopped.`, {
        falRequestId: accepted.id,
      });
      context.onProgress({ stage: 'queued' });
      return Promise.resolve(accepted);
    },
    async await(found) {
      await pollUntilCompleted(found, base, config, context, scope, timing);
      return found;
    },
    collect: (found) => collectResult(found, base, config, context, scope),
    cancel: {
      signal: context.signal,
      stop: async (found) => {
        await cancelRequest(found, base, config, context, scope);
        return new AppError('cancelled', 'Cancelled.', { retryable: false, details: { phase: 'after_send' } });
      },
    },
    fail: (error) => (error instanceof AppError ? error : networkError(error, scope, `while ${PROVIDER} was working`)),
    close: () => deadline.dispose(),
  });
}
