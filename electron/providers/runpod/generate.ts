import { randomInt } from 'node:crypto';
import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { readJson } from '../http/body.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, abortedError, malformedError, networkError } from '../http/errors.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import { runJob } from '../skeleton/run-job.js';
import type { ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import { cancelJob } from './cancel.js';
import { finishJob } from './collect.js';
import { PROVIDER, authHeaders, endpointOf, hasKey, isRecord, secretsOf } from './connection.js';
import { runpodResponseError } from './errors.js';
import { type Planned, planGraph, planJob } from './graph.js';
import { type Completed, type PollTiming, pollUntilDone } from './poll.js';

/**
 * RunPod serverless worker-comfyui on the provider skeleton (skeleton/run-job.ts): connect builds the graph with
 * Atelier's ComfyUI builder and the source images as data URIs, submit POSTs /run and RunPod answers a job id (the
 * accept point, handed to onAccepted with the endpoint so resume.ts can collect it), await polls /status, collect
 * decodes the images. Cancel and a timeout POST /cancel/<id>, so the endpoint stops billing for the job.
 */
export async function generate(
  request: GenerateRequest,
  config: ProviderConfig,
  context: ProviderContext,
  timing: PollTiming,
): Promise<ProviderOutput> {
  const seed = request.seed ?? randomInt(0, 2 ** 32);
  const endpoint = endpointOf(config);
  planGraph(request, config, seed);
  if (!hasKey(config)) {
    throw new AppError('provider_auth', 'Add a RunPod API key in settings first.', {
      retryable: false,
      details: { phase: 'before_accept' },
    });
  }
  const timeoutMs = request.timeoutMs ?? config.timeoutMs;
  const deadline = new Deadline(context.signal, timeoutMs);
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: secretsOf(config) };
  const headers = authHeaders(config);

  return runJob<Planned, string, Completed>({
    connect: () => planJob(request, config, context, seed, timeoutMs),

    async submit(planned) {
      context.trace('request', `POST /run to endpoint ${endpoint.id} (${planned.what}, ${planned.bytes} bytes)`, {
        seed,
        ...(planned.names.length === 0 ? {} : { images: planned.names }),
      });
      context.onProgress({ stage: 'uploading' });
      // Cancelled while the graph was built: nothing has left, so nothing was billed.
      if (deadline.signal.aborted) throw abortedError(scope, false);
      const response = await send(
        joinUrl(endpoint.base, 'run'),
        { method: 'POST', headers, raw: { bytes: Buffer.from(planned.body), contentType: 'application/json' } },
        scope,
      );
      if (response.status !== 200) throw await runpodResponseError(response, scope, endpoint.id);
      const json = await readJson(response, config.maxResponseBytes, scope, 'the /run answer');
      if (!isRecord(json) || typeof json.id !== 'string' || json.id === '')
        throw malformedError(scope, 'a /run answer without a job id', { phase: 'after_send' });
      const jobId = json.id.slice(0, 200);
      // Stored with the job before polling starts: a later run collects it through resume.ts, never submits again.
      context.onAccepted({
        id: jobId,
        data: {
          endpoint: endpoint.base,
          seed: String(seed),
          usesSeed: planned.usesSeed ? 'yes' : 'no',
          ...(planned.loaded === undefined ? {} : { loaded: `${planned.loaded.width}x${planned.loaded.height}` }),
        },
      });
      context.trace('accepted', `${PROVIDER} job ${jobId}`, { runpodJobId: jobId });
      context.onProgress({ stage: 'queued' });
      return jobId;
    },

    await: (jobId) => pollUntilDone({ endpoint, jobId, headers, config, context, scope, timing }),

    collect: (done, jobId, planned) =>
      finishJob(
        done,
        {
          jobId,
          seed,
          usesSeed: planned.usesSeed,
          ...(planned.loaded === undefined ? {} : { loaded: planned.loaded }),
        },
        request,
        config,
        context,
        scope,
      ),

    cancel: { signal: deadline.signal, stop: (jobId) => cancelJob(endpoint, jobId, headers, context, scope) },

    fail: (error) => (error instanceof AppError ? error : networkError(error, scope, `while ${PROVIDER} was working`)),
    close: () => deadline.dispose(),
  });
}
