import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { type Seed, normalizeSeed } from '../../../shared/seed.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, networkError } from '../http/errors.js';
import { parseBaseUrl } from '../http/url.js';
import { runJob } from '../skeleton/run-job.js';
import type { ProviderConfig, ProviderContext, ProviderOutput, RemoteTask } from '../types.js';
import { cancelJob } from './cancel.js';
import { type JobFacts, finishJob } from './collect.js';
import { type Endpoint, PROVIDER, authHeaders, endpointOf, mayCarryKey, secretsOf } from './connection.js';
import { jobFailed } from './errors.js';
import { type Completed, type PollTiming, pollUntilDone } from './poll.js';

function size(text: string | undefined): { width: number; height: number } | undefined {
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(text ?? '');
  return match === null ? undefined : { width: Number(match[1]), height: Number(match[2]) };
}

/** The endpoint that took the job, as generate.ts stored it; the key goes there only as connection.ts allows. */
function storedEndpoint(remote: RemoteTask, config: ProviderConfig): Endpoint {
  const configured = endpointOf(config);
  const stored = remote.data?.endpoint;
  if (stored === undefined || stored === '' || stored === configured.base) return configured;
  if (!mayCarryKey(stored, configured.base))
    throw jobFailed(
      `${PROVIDER} job ${remote.id} was sent to ${stored}, which is no longer the endpoint in settings; Atelier will ` +
        `not send the key there to collect it.`,
      { remoteGone: true },
    );
  const { base } = parseBaseUrl(stored, configured.base, PROVIDER);
  return { base, id: base.split('/').at(-1) ?? configured.id };
}

/** Collects a job an earlier run submitted (generate.ts stored its id and endpoint): polls, then decodes; never submits. */
export async function resume(
  remote: RemoteTask,
  request: GenerateRequest,
  config: ProviderConfig,
  context: ProviderContext,
  timing: PollTiming,
): Promise<ProviderOutput> {
  const endpoint = storedEndpoint(remote, config);
  const seed: Seed | null = normalizeSeed(remote.data?.seed) ?? request.seed ?? null;
  const loaded = size(remote.data?.loaded);
  const facts: JobFacts = {
    jobId: remote.id,
    seed: seed ?? 0,
    usesSeed: remote.data?.usesSeed === 'yes' && seed !== null,
    ...(loaded === undefined ? {} : { loaded }),
  };
  const deadline = new Deadline(context.signal, request.timeoutMs ?? config.timeoutMs);
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: secretsOf(config) };
  const headers = authHeaders(config);
  return runJob<string, string, Completed>({
    connect: () => Promise.resolve(remote.id),
    submit(jobId) {
      context.trace('resume', `Collecting ${PROVIDER} job ${jobId}, accepted before Atelier stopped.`, {
        runpodJobId: jobId,
      });
      context.onProgress({ stage: 'queued' });
      return Promise.resolve(jobId);
    },
    await: (jobId) => pollUntilDone({ endpoint, jobId, headers, config, context, scope, timing }),
    collect: (done) => finishJob(done, facts, request, config, context, scope),
    cancel: { signal: deadline.signal, stop: (jobId) => cancelJob(endpoint, jobId, headers, context, scope) },
    fail: (error) => (error instanceof AppError ? error : networkError(error, scope, `while ${PROVIDER} was working`)),
    close: () => deadline.dispose(),
  });
}
