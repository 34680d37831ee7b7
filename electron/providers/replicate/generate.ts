import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { readJson } from '../http/body.js';
import { abortedError, networkError } from '../http/errors.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import { openKeyedCall } from '../http/keyed-call.js';
import { runJob } from '../skeleton/run-job.js';
import type { ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import { cancelPrediction } from './cancel.js';
import { PROVIDER, REPLICATE_BASE_URL, authHeaders, modelFor } from './connection.js';
import { replicateResponseError } from './errors.js';
import { RULES, familyOf, validateReplicateRequest } from './models.js';
import { collectOutputs, heldFilesReady } from './outputs.js';
import { type PollTiming, pollUntilDone, reportProgress } from './poll.js';
import { type Prediction, readPrediction } from './prediction.js';
import { type CreateCall, createCall } from './request-body.js';
import { sourceImageData, toDataUri } from './source-image.js';

/** Replicate recommends a data URI only for files under 1 MB (docs/hosted-protocols.md §1.4). */
const DATA_URI_ADVISED_BYTES = 1024 * 1024;

/** What a later run needs to find a prediction again: its id and the URLs Replicate gave (strings, never the token). */
export function remoteOf(prediction: Prediction): { id: string; data: Record<string, string> } {
  const data: Record<string, string> = {};
  if (prediction.getUrl !== undefined) data.getUrl = prediction.getUrl;
  if (prediction.cancelUrl !== undefined) data.cancelUrl = prediction.cancelUrl;
  return { id: prediction.id, data };
}

/**
 * Replicate predictions on the provider skeleton (skeleton/run-job.ts): submit POSTs the create call with `Prefer:
 * wait=N` and Replicate answers the prediction (the accept point: its id and URLs go to onAccepted), finished when
 * the model was quick; await polls `urls.get` otherwise, reading progress from the logs; collect downloads the outputs
 * at once. A cancel or timeout while polling asks Replicate to cancel the prediction.
 */
export async function generate(
  request: GenerateRequest,
  config: ProviderConfig,
  context: ProviderContext,
  timing: PollTiming,
): Promise<ProviderOutput> {
  const model = modelFor(request, config);
  validateReplicateRequest(request, model);
  const { base, deadline, scope } = openKeyedCall(config, context.signal, request.timeoutMs ?? config.timeoutMs, {
    provider: PROVIDER,
    defaultBase: REPLICATE_BASE_URL,
    missingKey: 'Add a Replicate API token in settings first.',
  });
  const seeding = { asked: request.seed, takesSeed: RULES[familyOf(model)].seed };

  return runJob<CreateCall, Prediction, Prediction>({
    async connect() {
      const source = request.inputImage === undefined ? undefined : await sourceImageData(context.inputs);
      if (source !== undefined && source.data.byteLength > DATA_URI_ADVISED_BYTES) {
        context.trace(
          'warning',
          `The source image is ${Math.round(source.data.byteLength / 1024)} KB; ${PROVIDER} advises data URIs under ` +
            '1 MB and may refuse it.',
        );
      }
      const call = createCall(request, model, source === undefined ? undefined : toDataUri(source));
      if (request.inputImage?.strength !== undefined && call.body.input.prompt_strength === undefined)
        context.trace('warning', `${model} has no strength setting: ${request.inputImage.strength} was not sent.`);
      return call;
    },

    async submit(call) {
      const edit = request.inputImage === undefined ? '' : ', edit';
      context.trace('request', `POST /${call.path} (${model}${edit})`, { model, inputs: Object.keys(call.body.input) });
      context.onProgress({ stage: 'queued' });
      const headers = { ...authHeaders(config), prefer: `wait=${timing.syncWaitSeconds}` };
      let response: Response;
      try {
        response = await send(joinUrl(base, call.path), { method: 'POST', headers, json: call.body }, scope);
      } catch (error) {
        if (deadline.reason !== null) {
          // Replicate held the request (Prefer: wait) and has not said the prediction's id: it cannot be cancelled.
          context.trace(
            'cancel',
            `Stopped waiting while ${PROVIDER} held the create call; the prediction may still run.`,
          );
        }
        throw error;
      }
      if (response.status !== 200 && response.status !== 201 && response.status !== 202)
        throw await replicateResponseError(response, scope, config.maxResponseBytes);
      const json = await readJson(response, config.maxResponseBytes, scope, 'the create answer');
      const prediction = readPrediction(json, scope, 'a create answer');
      // Stored with the job before anything is awaited: a later run collects it through resume.ts, never submits again.
      context.onAccepted(remoteOf(prediction));
      context.trace('accepted', `${PROVIDER} prediction ${prediction.id} (${prediction.status})`, {
        predictionId: prediction.id,
      });
      reportProgress(prediction, context);
      return prediction;
    },

    // Sync mode answers "with the files as soon as they are all available", the status maybe still processing.
    await: (prediction) =>
      heldFilesReady(prediction)
        ? Promise.resolve(prediction)
        : pollUntilDone(prediction, base, config, context, scope, timing),

    collect: (finished) => collectOutputs(finished, seeding, config, context, scope),

    cancel: {
      signal: deadline.signal,
      async stop(prediction) {
        await cancelPrediction(prediction, base, config, context);
        return abortedError(scope, true);
      },
    },

    fail: (error) =>
      error instanceof AppError ? error : networkError(error, scope, `while ${scope.provider} was working`),
    close: () => deadline.dispose(),
  });
}
