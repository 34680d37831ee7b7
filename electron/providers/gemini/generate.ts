import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, networkError } from '../http/errors.js';
import { send } from '../http/request.js';
import { parseBaseUrl } from '../http/url.js';
import { runJob } from '../skeleton/run-job.js';
import type { ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import { GEMINI_BASE_URL, PROVIDER, authHeaders, geminiUrl, hasKey, modelFor, secretsOf } from './connection.js';
import { geminiResponseError } from './errors.js';
import { validateGeminiRequest } from './models.js';
import { type GeminiBody, generateContentBody } from './request-body.js';
import { readGeminiResult } from './results.js';

/**
 * Gemini on the provider skeleton (skeleton/run-job.ts): connect encodes the body (the source image inline), submit
 * POSTs generateContent, await reads the one synchronous answer. No cancel hook: Gemini has no cancel endpoint, so
 * the deadline drops the connection (Google may still bill).
 */
export async function generate(
  request: GenerateRequest,
  config: ProviderConfig,
  context: ProviderContext,
): Promise<ProviderOutput> {
  const model = modelFor(request, config);
  validateGeminiRequest(request, model);
  const { base } = parseBaseUrl(config.baseUrl, GEMINI_BASE_URL, PROVIDER);
  if (!hasKey(config)) {
    throw new AppError('provider_auth', 'Add a Google Gemini API key in settings first.', {
      retryable: false,
      details: { phase: 'before_accept' },
    });
  }
  const deadline = new Deadline(context.signal, request.timeoutMs ?? config.timeoutMs);
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: secretsOf(config) };
  const path = `models/${encodeURIComponent(model)}:generateContent`;

  return runJob<GeminiBody, Response, ProviderOutput>({
    async connect() {
      const body = await generateContentBody(request, model, context.inputs);
      if (request.inputImage?.strength !== undefined) {
        context.trace(
          'warning',
          `Gemini has no strength setting: ${request.inputImage.strength} was not sent; say in the prompt how much ` +
            `to change.`,
        );
      }
      return body;
    },

    async submit(body) {
      const { aspectRatio, imageSize } = body.generationConfig.imageConfig;
      context.trace(
        'request',
        `POST /v1beta/${path} (${aspectRatio}${imageSize === undefined ? '' : `, ${imageSize}`}` +
          `${request.inputImage === undefined ? '' : ', with the source image'})`,
        { model, aspectRatio, ...(imageSize === undefined ? {} : { imageSize }) },
      );
      context.onProgress({ stage: 'generating', fraction: 0 });
      const response = await send(
        geminiUrl(base, path),
        { method: 'POST', headers: authHeaders(config), json: body },
        scope,
      );
      if (response.status !== 200) throw await geminiResponseError(response, scope, config.maxResponseBytes);
      context.onAccepted();
      return response;
    },

    await: (response) => readGeminiResult(response, scope, config, context),

    async collect(output) {
      context.onProgress({ stage: 'done', fraction: 1 });
      return output;
    },

    fail: (error) =>
      error instanceof AppError ? error : networkError(error, scope, `while ${scope.provider} was working`),
    close: () => deadline.dispose(),
  });
}
