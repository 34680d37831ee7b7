import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { readJson } from '../http/body.js';
import { malformedError, networkError } from '../http/errors.js';
import { send } from '../http/request.js';
import { openKeyedCall } from '../http/keyed-call.js';
import { runJob } from '../skeleton/run-job.js';
import type { ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import { cancelRequest } from './cancel.js';
import { FAL_QUEUE_URL, PROVIDER, authHeaders, isRecord, modelFor } from './connection.js';
import { falResponseError } from './errors.js';
import { validateFalRequest } from './models.js';
import { type FalRequest, type PollTiming, pollUntilCompleted } from './poll.js';
import { queueUrlsFor, submitUrl } from './queue-paths.js';
import { type FalBody, submitBody } from './request-body.js';
import { collectResult } from './result.js';
import { remoteOf } from './remote.js';

/** A URL fal returned, kept as it said it (bounded), or the one built from the model id when it left it out. */
function urlOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && /^https?:\/\//i.test(value) ? value.slice(0, 2000) : fallback;
}

/**
 * fal's queue on the provider skeleton (skeleton/run-job.ts): submit POSTs the model's input to queue.fal.run/<model
 * id> and fal answers a request id with its status, response and cancel URLs (the accept point, stored for resume);
 * await polls the status URL, collect fetches the result and downloads its images at once; a cancel PUTs cancel_url.
 */
export async function generate(
  request: GenerateRequest,
  config: ProviderConfig,
  context: ProviderContext,
  timing: PollTiming,
): Promise<ProviderOutput> {
  const model = modelFor(request, config);
  validateFalRequest(request, model);
  const { base, deadline, scope } = openKeyedCall(config, context.signal, request.timeoutMs ?? config.timeoutMs, {
    provider: PROVIDER,
    defaultBase: FAL_QUEUE_URL,
    missingKey: 'Add a fal.ai API key in settings first.',
  });

  return runJob<FalBody, FalRequest, FalRequest>({
    async connect() {
      const { body, dropped } = submitBody(request, model, context.inputs);
      if (dropped.length > 0) context.trace('warning', `${model} takes no ${dropped.join(', ')}: not sent.`);
      return body;
    },

    async submit(body) {
      context.trace('request', `POST /${model}${'image_url' in body ? ' (edit)' : ''}`, { model });
      context.onProgress({ stage: 'queued' });
      const response = await send(
        submitUrl(base, model),
        { method: 'POST', headers: authHeaders(config), json: body },
        scope,
      );
      if (response.status < 200 || response.status > 202) {
        throw await falResponseError(response, scope, config.maxResponseBytes, { model, phase: 'before_accept' });
      }
      const json = await readJson(response, config.maxResponseBytes, scope, 'the submit answer');
      if (!isRecord(json) || typeof json.request_id !== 'string' || json.request_id === '')
        throw malformedError(scope, 'a submit answer without request_id', { phase: 'after_send' });
      const id = json.request_id.slice(0, 200);
      const built = queueUrlsFor(base, model, id);
      const accepted: FalRequest = {
        id,
        model,
        statusUrl: urlOr(json.status_url, built.statusUrl),
        responseUrl: urlOr(json.response_url, built.responseUrl),
        cancelUrl: urlOr(json.cancel_url, built.cancelUrl),
      };
      // Stored with the job before polling starts: a later run collects it through resume.ts, never submits again.
      context.onAccepted(remoteOf(accepted));
      context.trace('accepted', `${PROVIDER} request ${id}`, { falRequestId: id });
      return accepted;
    },

    async await(accepted) {
      await pollUntilCompleted(accepted, base, config, context, scope, timing);
      return accepted;
    },

    collect: (accepted) => collectResult(accepted, base, config, context, scope),

    cancel: {
      signal: context.signal,
      stop: async (accepted) => {
        await cancelRequest(accepted, base, config, context, scope);
        return new AppError('cancelled', 'Cancelled.', { retryable: false, details: { phase: 'after_send' } });
      },
    },

    fail: (error) =>
      error instanceof AppError ? error : networkError(error, scope, `while ${scope.provider} was working`),
    close: () => deadline.dispose(),
  });
}
