import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, networkError } from '../http/errors.js';
import { parseBaseUrl } from '../http/url.js';
import type { ProviderConfig, ProviderContext, ProviderOutput, RemoteTask } from '../types.js';
import { BFL_BASE_URL, PROVIDER, secretsOf } from './connection.js';
import { type PollTiming, collectSample, pollUntilReady } from './poll.js';

/** Collects a task an earlier run submitted (generate.ts stored its polling URL): polls, then downloads. */
export async function resume(
  remote: RemoteTask,
  request: GenerateRequest,
  config: ProviderConfig,
  context: ProviderContext,
  timing: PollTiming,
): Promise<ProviderOutput> {
  const { base } = parseBaseUrl(config.baseUrl, BFL_BASE_URL, PROVIDER);
  const pollingUrl = remote.data?.pollingUrl;
  if (pollingUrl === undefined || pollingUrl === '') {
    throw new AppError(
      'provider_error',
      `${PROVIDER} task ${remote.id} has no polling URL stored; it cannot be found again.`,
      {
        retryable: false,
        details: { phase: 'after_send', remoteGone: true },
      },
    );
  }
  const deadline = new Deadline(context.signal, request.timeoutMs ?? config.timeoutMs);
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: secretsOf(config) };
  try {
    context.trace('resume', `Collecting ${PROVIDER} task ${remote.id}, accepted before Atelier stopped.`, {
      bflTaskId: remote.id,
    });
    context.onProgress({ stage: 'generating' });
    const ready = await pollUntilReady(pollingUrl, base, config, context, scope, timing);
    return await collectSample(ready, remote.id, config, context, scope);
  } catch (error) {
    throw error instanceof AppError ? error : networkError(error, scope, `while ${PROVIDER} was working`);
  } finally {
    deadline.dispose();
  }
}
