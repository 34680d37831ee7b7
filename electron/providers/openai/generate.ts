import { type GenerateRequest, operationOf } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, networkError } from '../http/errors.js';
import { type MultipartBody, buildMultipart } from '../http/multipart.js';
import { send } from '../http/request.js';
import { parseBaseUrl } from '../http/url.js';
import { runJob } from '../skeleton/run-job.js';
import type { ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import { OPENAI_BASE_URL, PROVIDER, authHeaders, modelFor, openAIUrl, providerLabel, secretsOf } from './connection.js';
import { editForm } from './edits.js';
import { openAIResponseError } from './errors.js';
import { generationBody, validateOpenAIRequest } from './models.js';
import { readJsonResult } from './results.js';
import { readStream } from './stream.js';

/**
 * OpenAI on the provider skeleton (skeleton/run-job.ts): connect encodes the edit form, submit POSTs it, await reads
 * the answer (SSE partials as previews), collect adds the request id. No cancel hook: there is no cancel endpoint,
 * so the deadline aborts the connection (OpenAI may still bill).
 */
export async function generate(
  request: GenerateRequest,
  config: ProviderConfig,
  context: ProviderContext,
): Promise<ProviderOutput> {
  const model = modelFor(request, config);
  validateOpenAIRequest(request, model);
  const { base, basic } = parseBaseUrl(config.baseUrl, OPENAI_BASE_URL, PROVIDER);
  if (!(config.apiKey ?? '') && basic === undefined && new URL(base).hostname === 'api.openai.com') {
    throw new AppError('provider_auth', 'Add an OpenAI API key in settings first.', {
      retryable: false,
      details: { phase: 'before_accept' },
    });
  }
  const deadline = new Deadline(context.signal, request.timeoutMs ?? config.timeoutMs);
  const scope: CallScope = { provider: providerLabel(base), deadline, secrets: secretsOf(config, basic) };
  const body = generationBody(request, model);
  const streaming = body.stream === true;
  const op = operationOf(request);
  // img2img and a masked edit are both /images/edits: the mask alone tells them apart.
  const editing = 'operation' in op && (op.operation === 'img2img' || op.operation === 'inpaint');
  const path = editing ? 'images/edits' : 'images/generations';

  return runJob<MultipartBody | undefined, { response: Response; requestId: string | null }, ProviderOutput>({
    async connect() {
      const form = editing ? buildMultipart(await editForm(request, model, context.inputs)) : undefined;
      if (editing && request.inputImage?.strength !== undefined) {
        context.trace(
          'warning',
          `OpenAI has no strength setting: ${request.inputImage.strength} was not sent; the model decides how far to ` +
            `move from the image.`,
        );
      }
      return form;
    },

    async submit(form) {
      context.trace(
        'request',
        `POST /v1/${path} (${model}, n=${request.count}` +
          `${streaming ? `, streaming ${request.partialImages} partials` : ''}` +
          `${request.mask === undefined ? '' : ', masked'})`,
        {
          model,
          n: request.count,
          size: body.size,
          stream: streaming,
        },
      );
      context.onProgress({ stage: 'generating', fraction: 0 });
      const payload = form === undefined ? { json: body } : { raw: form };
      const response = await send(
        openAIUrl(base, path),
        { method: 'POST', headers: authHeaders(config, basic), ...payload },
        scope,
      );
      if (response.status !== 200) throw await openAIResponseError(response, scope, config.maxResponseBytes);
      context.onAccepted();
      const requestId = response.headers.get('x-request-id');
      if (requestId !== null) context.trace('accepted', `OpenAI accepted the request (${requestId}).`, { requestId });
      return { response, requestId };
    },

    await: ({ response }) =>
      (response.headers.get('content-type') ?? '').includes('text/event-stream')
        ? readStream(response, request, scope, config, context)
        : readJsonResult(response, scope, config, context, basic),

    async collect(output, { requestId }) {
      if (requestId !== null) output.info = { ...output.info, requestId };
      context.onProgress({ stage: 'done', fraction: 1 });
      return output;
    },

    fail: (error) =>
      error instanceof AppError ? error : networkError(error, scope, `while ${scope.provider} was working`),
    close: () => deadline.dispose(),
  });
}
