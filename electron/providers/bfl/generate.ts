import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { readJson } from '../http/body.js';
import { malformedError, networkError } from '../http/errors.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import { openKeyedCall } from '../http/keyed-call.js';
import { runJob } from '../skeleton/run-job.js';
import type { ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import { BFL_BASE_URL, PROVIDER, authHeaders, isRecord, modelFor } from './connection.js';
import { bflResponseError } from './errors.js';
import { validateBflRequest } from './models.js';
import { type PollTiming, type ReadyResult, collectSample, pollUntilReady } from './poll.js';
import { type BflBody, submitBody } from './request-body.js';

interface Task {
  id: string;
  pollingUrl: string;
}

/**
 * FLUX.2 on the provider skeleton (skeleton/run-job.ts): submit POSTs /v1/<model> and BFL answers a task id and its
 * polling URL (the accept point), await polls that URL, collect downloads the short-lived sample at once. BFL has no
 * cancel endpoint: a cancel stops polling, and the task may still finish and be billed.
 */
export async function generate(
  request: GenerateRequest,
  config: ProviderConfig,
  context: ProviderContext,
  timing: PollTiming,
): Promise<ProviderOutput> {
  const model = modelFor(request, config);
  validateBflRequest(request, model);
  const { base, deadline, scope } = openKeyedCall(config, context.signal, request.timeoutMs ?? config.timeoutMs, {
    provider: PROVIDER,
    defaultBase: BFL_BASE_URL,
    missingKey: 'Add a Black Forest Labs API key in settings first.',
  });
  const path = `v1/${encodeURIComponent(model)}`;

  return runJob<BflBody, Task, ReadyResult>({
    async connect() {
      const body = submitBody(request, model, context.inputs);
      if (request.inputImage?.strength !== undefined) {
        context.trace('warning', `FLUX.2 has no strength setting: ${request.inputImage.strength} was not sent.`);
      }
      return body;
    },

    async submit(body) {
      context.trace('request', `POST /${path} (${body.width}x${body.height}${'input_image' in body ? ', edit' : ''})`, {
        model,
      });
      context.onProgress({ stage: 'queued' });
      const response = await send(
        joinUrl(base, path),
        { method: 'POST', headers: authHeaders(config), json: body },
        scope,
      );
      if (response.status !== 200) throw await bflResponseError(response, scope, config.maxResponseBytes);
      const json = await readJson(response, config.maxResponseBytes, scope, 'the submit answer');
      if (!isRecord(json) || typeof json.id !== 'string' || typeof json.polling_url !== 'string')
        throw malformedError(scope, 'a submit answer without id and polling_url', { phase: 'after_send' });
      const task = { id: json.id.slice(0, 200), pollingUrl: json.polling_url.slice(0, 2000) };
      // Stored with the job before polling starts: a later run collects it through resume.ts, never submits again.
      context.onAccepted({ id: task.id, data: { pollingUrl: task.pollingUrl } });
      context.trace('accepted', `${PROVIDER} task ${task.id}`, { bflTaskId: task.id });
      return task;
    },

    await: (task) => pollUntilReady(task.pollingUrl, base, config, context, scope, timing),

    collect: (ready, task) => collectSample(ready, task.id, config, context, scope),

    cancel: {
      signal: context.signal,
      stop: (task) => {
        context.trace(
          'cancel',
          `${PROVIDER} has no cancel endpoint: stopped polling task ${task.id}; it may still run.`,
        );
        return Promise.resolve(
          new AppError('cancelled', 'Cancelled.', { retryable: false, details: { phase: 'after_send' } }),
        );
      },
    },

    fail: (error) =>
      error instanceof AppError ? error : networkError(error, scope, `while ${scope.provider} was working`),
    close: () => deadline.dispose(),
  });
}
