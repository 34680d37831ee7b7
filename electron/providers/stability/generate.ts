import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { networkError } from '../http/errors.js';
import { buildMultipart } from '../http/multipart.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import { openKeyedCall } from '../http/keyed-call.js';
import { runJob } from '../skeleton/run-job.js';
import type { ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import { type StabilityImage, imageFromJson, isJsonAnswer, readImageAnswer, readSubmitJson } from './answer.js';
import { toOutput } from './collect.js';
import { PROVIDER, STABILITY_BASE_URL, authHeaders, modelFor } from './connection.js';
import { stabilityResponseError } from './errors.js';
import { type PollTiming, pollResult } from './poll.js';
import { type StabilityCall, buildCall } from './request-form.js';
import { validateStabilityRequest } from './validate.js';

type Submitted =
  /** A synchronous endpoint answered 200: the image is in this response's body. */
  | { kind: 'answer'; response: Response }
  /** A synchronous endpoint answered the image as JSON, already read. */
  | { kind: 'read'; answer: StabilityImage }
  /** Stability answered an id (creative upscale): the image is collected from /v2beta/results/{id}. */
  | { kind: 'polled'; id: string };

/**
 * Stability REST v2 on the provider skeleton (skeleton/run-job.ts): connect builds the multipart form, submit POSTs
 * it; a synchronous endpoint answers the image itself (no remote id: paid when it answers), an asynchronous one an
 * id that is stored before polling. Stability has no cancel endpoint: a cancel drops the connection or stops polling.
 */
export async function generate(
  request: GenerateRequest,
  config: ProviderConfig,
  context: ProviderContext,
  timing: PollTiming,
): Promise<ProviderOutput> {
  const model = modelFor(request, config);
  validateStabilityRequest(request, model);
  const { base, deadline, scope } = openKeyedCall(config, context.signal, request.timeoutMs ?? config.timeoutMs, {
    provider: PROVIDER,
    defaultBase: STABILITY_BASE_URL,
    missingKey: 'Add a Stability AI API key in settings first.',
  });
  let path = '';

  return runJob<StabilityCall, Submitted, StabilityImage>({
    async connect() {
      const call = await buildCall(request, model, context.inputs);
      path = call.path;
      for (const note of call.notes) context.trace('warning', `${PROVIDER}: ${note}`);
      return call;
    },

    async submit(call) {
      const fields = call.parts.filter((p) => !('filename' in p)).map((p) => p.name);
      context.trace('request', `POST /${call.path} (${fields.join(', ')})`, { model, endpoint: call.path });
      if (!call.async) {
        context.trace(
          'request',
          `${PROVIDER} answers this endpoint at once: there is no remote id to collect later, and the work is paid ` +
            `when it answers.`,
        );
      }
      context.onProgress({ stage: 'generating' });
      const form = buildMultipart(call.parts);
      const response = await send(
        joinUrl(base, call.path),
        { method: 'POST', headers: { ...authHeaders(config), accept: 'image/*' }, raw: form },
        scope,
      );
      if (response.status !== 200) throw await stabilityResponseError(response, scope, config.maxResponseBytes);
      if (!isJsonAnswer(response)) {
        context.onAccepted();
        return { kind: 'answer', response };
      }
      const read = await readSubmitJson(response, config, scope);
      if ('id' in read) {
        // Stored with the job before polling starts: a later run collects it through resume.ts, never submits again.
        context.onAccepted({ id: read.id, data: { endpoint: call.path } });
        context.trace('accepted', `${PROVIDER} result ${read.id}`, { stabilityResultId: read.id });
        return { kind: 'polled', id: read.id };
      }
      context.onAccepted();
      return { kind: 'read', answer: imageFromJson(read.json, scope) };
    },

    async await(submitted) {
      if (submitted.kind === 'read') return submitted.answer;
      if (submitted.kind === 'answer') {
        context.onProgress({ stage: 'downloading' });
        return readImageAnswer(submitted.response, config, scope);
      }
      const response = await pollResult(submitted.id, base, config, context, scope, timing);
      context.onProgress({ stage: 'downloading' });
      return readImageAnswer(response, config, scope);
    },

    collect: async (answer, submitted) =>
      toOutput(answer, context, {
        stabilityEndpoint: path,
        ...(submitted.kind === 'polled' ? { stabilityResultId: submitted.id } : {}),
      }),

    cancel: {
      signal: context.signal,
      stop: () =>
        Promise.resolve(
          new AppError('cancelled', 'Cancelled.', { retryable: false, details: { phase: 'after_send' } }),
        ),
    },

    fail(error) {
      const appError =
        error instanceof AppError ? error : networkError(error, scope, `while ${scope.provider} was working`);
      if (appError.code === 'cancelled' && appError.details?.phase === 'after_send') {
        context.trace(
          'cancel',
          `${PROVIDER} has no cancel endpoint: Atelier stopped waiting (${path}); the work may still run and be billed.`,
        );
      }
      return appError;
    },
    close: () => deadline.dispose(),
  });
}
