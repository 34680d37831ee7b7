import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, networkError } from '../http/errors.js';
import { parseBaseUrl } from '../http/url.js';
import type { ProviderConfig, ProviderContext, ProviderOutput, RemoteTask } from '../types.js';
import { readImageAnswer } from './answer.js';
import { toOutput } from './collect.js';
import { PROVIDER, STABILITY_BASE_URL, secretsOf } from './connection.js';
import { type PollTiming, pollResult } from './poll.js';

/** Collects work an earlier run submitted (generate.ts stored its result id): polls /v2beta/results/{id}, never posts. */
export async function resume(
  remote: RemoteTask,
  request: GenerateRequest,
  config: ProviderConfig,
  context: ProviderContext,
  timing: PollTiming,
): Promise<ProviderOutput> {
  const { base } = parseBaseUrl(config.baseUrl, STABILITY_BASE_URL, PROVIDER);
  const deadline = new Deadline(context.signal, request.timeoutMs ?? config.timeoutMs);
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: secretsOf(config) };
  try {
    context.trace('resume', `Collecting ${PROVIDER} result ${remote.id}, accepted before Atelier stopped.`, {
      stabilityResultId: remote.id,
    });
    context.onProgress({ stage: 'generating' });
    const response = await pollResult(remote.id, base, config, context, scope, timing);
    context.onProgress({ stage: 'downloading' });
    const answer = await readImageAnswer(response, config, scope);
    return toOutput(answer, context, { stabilityEndpoint: remote.data?.endpoint, stabilityResultId: remote.id });
  } catch (error) {
    throw error instanceof AppError ? error : networkError(error, scope, `while ${PROVIDER} was working`);
  } finally {
    deadline.dispose();
  }
}
