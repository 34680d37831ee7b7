import { type GenerateRequest, type ProviderTestResult, operationOf } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { boundedChunks, parseJsonSync, readJson } from '../http/body.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, droppedError, malformedError, networkError } from '../http/errors.js';
import { decodeBase64, toImage } from '../http/image.js';
import { buildMultipart } from '../http/multipart.js';
import { send } from '../http/request.js';
import { parseSse } from '../http/sse.js';
import { basicHeader, bearerHeader, joinUrl, parseBaseUrl } from '../http/url.js';
import type {
  EncodedImage,
  GeneratedImage,
  Provider,
  ProviderConfig,
  ProviderContext,
  ProviderOutput,
} from '../types.js';
import { editForm } from './edits.js';
import { extractOpenAIError, openAIError, openAIResponseError } from './errors.js';
import {
  DEFAULT_OPENAI_MODEL,
  OPENAI_MODELS,
  generationBody,
  isGptImage,
  familyOf,
  openAICapabilities,
  validateOpenAIRequest,
} from './models.js';

export const OPENAI_BASE_URL = 'https://api.openai.com';
const PROVIDER = 'OpenAI';
const TEST_TIMEOUT_MS = 15_000;

/** `{base}/v1/<path>`, accepting a base that already ends in /v1 (most compatible servers document it that way). */
export function openAIUrl(base: string, path: string): string {
  return /\/v1$/i.test(base) ? joinUrl(base, path) : joinUrl(base, `v1/${path}`);
}

/** How messages name the server: a custom base URL is not OpenAI, and says which server it is. */
export function providerLabel(base: string): string {
  const url = new URL(base);
  return url.hostname === 'api.openai.com' ? PROVIDER : `OpenAI-compatible server at ${url.host}`;
}

function modelFor(request: GenerateRequest | undefined, config: ProviderConfig): string {
  return request?.model ?? config.model ?? DEFAULT_OPENAI_MODEL;
}

function authHeaders(config: ProviderConfig, basic?: { username: string; password: string }): Record<string, string> {
  if (config.apiKey !== undefined && config.apiKey !== '') return bearerHeader(config.apiKey);
  if (basic !== undefined) return basicHeader(basic.username, basic.password);
  return {};
}

function secretsOf(config: ProviderConfig, basic?: { password: string }): string[] {
  return [config.apiKey, config.password, basic?.password].filter(
    (s): s is string => typeof s === 'string' && s !== '',
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * OpenAI Images (and OpenAI-compatible servers): POST /v1/images/generations, streamed over SSE when partial
 * previews are asked for. There is no cancel endpoint: cancelling aborts the connection (OpenAI may still bill).
 */
export function createOpenAIProvider(): Provider {
  return {
    id: 'openai',
    name: 'OpenAI',
    capabilities: (config) => openAICapabilities(modelFor(undefined, config)),
    knownModels: (config) => {
      const extra =
        config.model !== undefined && !(OPENAI_MODELS as readonly string[]).includes(config.model)
          ? [config.model]
          : [];
      return [...OPENAI_MODELS, ...extra];
    },
    // A custom base URL (LocalAI, a relay) may need no key; api.openai.com always does.
    isConfigured: (config) => {
      if (config.apiKey !== undefined && config.apiKey !== '') return true;
      if (config.baseUrl === undefined || config.baseUrl.trim() === '') return false;
      try {
        return new URL(config.baseUrl).hostname !== 'api.openai.com';
      } catch {
        return false;
      }
    },
    validate(request, config) {
      parseBaseUrl(config.baseUrl, OPENAI_BASE_URL, PROVIDER);
      validateOpenAIRequest(request, modelFor(request, config));
    },
    generate: (request, config, context) => generate(request, config, context),
    test: (config, signal) => testConnection(config, signal),
  };
}

async function generate(
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
  try {
    const form = editing ? buildMultipart(await editForm(request, model, context.inputs)) : undefined;
    if (editing && request.inputImage?.strength !== undefined) {
      context.trace(
        'warning',
        `OpenAI has no strength setting: ${request.inputImage.strength} was not sent; the model decides how far to move from the image.`,
      );
    }
    context.trace(
      'request',
      `POST /v1/${path} (${model}, n=${request.count}${streaming ? `, streaming ${request.partialImages} partials` : ''}${request.mask === undefined ? '' : ', masked'})`,
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
    const isSse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    const output = isSse
      ? await readStream(response, request, scope, config, context)
      : await readJsonResult(response, scope, config, context, basic);
    if (requestId !== null) output.info = { ...output.info, requestId };
    context.onProgress({ stage: 'done', fraction: 1 });
    return output;
  } catch (error) {
    throw error instanceof AppError ? error : networkError(error, scope, `while ${scope.provider} was working`);
  } finally {
    deadline.dispose();
  }
}

async function readJsonResult(
  response: Response,
  scope: CallScope,
  config: ProviderConfig,
  context: ProviderContext,
  basic?: { username: string; password: string },
): Promise<ProviderOutput> {
  context.onProgress({ stage: 'downloading' });
  const json = await readJson(response, config.maxResponseBytes, scope, 'the image response');
  if (!isRecord(json) || !Array.isArray(json.data))
    throw malformedError(scope, 'a response without a "data" list of images');
  if (json.data.length === 0) throw malformedError(scope, 'a response with no images');
  const images: GeneratedImage[] = [];
  let revisedPrompt: string | undefined;
  for (const [index, item] of json.data.entries()) {
    if (!isRecord(item)) throw malformedError(scope, `an image entry ${index} that is not an object`);
    if (typeof item.revised_prompt === 'string' && revisedPrompt === undefined) revisedPrompt = item.revised_prompt;
    if (typeof item.b64_json === 'string')
      images.push(toImage(decodeBase64(item.b64_json, scope, `image ${index + 1}`), scope, `image ${index + 1}`));
    else if (typeof item.url === 'string') images.push(await fetchImageUrl(item.url, scope, config, basic));
    else throw malformedError(scope, `image ${index + 1} with neither b64_json nor url`);
  }
  const output: ProviderOutput = { images };
  if (revisedPrompt !== undefined) output.revisedPrompt = revisedPrompt;
  if (isRecord(json.usage)) output.usage = json.usage;
  const info: Record<string, unknown> = {};
  for (const key of ['created', 'size', 'quality', 'background', 'output_format'] as const) {
    if (json[key] !== undefined) info[key] = json[key];
  }
  if (Object.keys(info).length > 0) output.info = info;
  return output;
}

/** Compatible servers may ignore response_format and return a URL; fetch it under the same bound and deadline. */
async function fetchImageUrl(
  url: string,
  scope: CallScope,
  config: ProviderConfig,
  basic?: { username: string; password: string },
): Promise<GeneratedImage> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw malformedError(scope, 'an image URL that is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw malformedError(scope, 'an image URL that is not http(s)');
  const sameOrigin =
    config.baseUrl !== undefined &&
    new URL(parseBaseUrl(config.baseUrl, OPENAI_BASE_URL, PROVIDER).base).origin === parsed.origin;
  // The key goes only back to the configured server, never to a blob host.
  const response = await send(
    parsed.toString(),
    { headers: sameOrigin ? { ...authHeaders(config, basic), accept: 'image/*' } : { accept: 'image/*' } },
    scope,
    'while downloading an image',
  );
  if (response.status !== 200)
    throw malformedError(scope, `HTTP ${response.status} for an image download`, { status: response.status });
  const chunks: Uint8Array[] = [];
  for await (const chunk of boundedChunks(response, config.maxResponseBytes, scope, 'while sending an image'))
    chunks.push(chunk);
  return toImage(Buffer.concat(chunks), scope, 'an image download');
}

async function readStream(
  response: Response,
  request: GenerateRequest,
  scope: CallScope,
  config: ProviderConfig,
  context: ProviderContext,
): Promise<ProviderOutput> {
  const partialsWanted = request.partialImages ?? 0;
  const images: GeneratedImage[] = [];
  let usage: Record<string, unknown> | undefined;
  let partials = 0;
  const info: Record<string, unknown> = {};
  for await (const event of parseSse(
    boundedChunks(response, config.maxResponseBytes, scope, 'while streaming images'),
  )) {
    if (event.data.trim() === '[DONE]') break;
    if (event.event === 'error')
      throw openAIError(
        0,
        response.headers,
        extractOpenAIError(parseJsonSync(event.data, scope, 'a stream error event')),
        scope,
      );
    const json = parseJsonSync(event.data, scope, `a "${event.event}" stream event`);
    if (!isRecord(json)) throw malformedError(scope, 'a stream event that is not a JSON object');
    if (json.error !== undefined && json.error !== null && json.error !== false) {
      throw openAIError(0, response.headers, extractOpenAIError(json), scope);
    }
    const type = typeof json.type === 'string' ? json.type : event.event;
    if (type.endsWith('.partial_image')) {
      partials += 1;
      const index = typeof json.partial_image_index === 'number' ? json.partial_image_index : partials - 1;
      const preview = decodePartial(json.b64_json, scope, context, index);
      if (preview !== null) context.onPartialImage(preview);
      context.onProgress({
        stage: 'partial',
        fraction: Math.min(0.95, (index + 1) / (partialsWanted + 1)),
        step: index + 1,
        steps: partialsWanted + 1,
      });
    } else if (type.endsWith('.completed')) {
      if (typeof json.b64_json !== 'string') throw malformedError(scope, 'a completed event without b64_json');
      images.push(
        toImage(decodeBase64(json.b64_json, scope, `image ${images.length + 1}`), scope, `image ${images.length + 1}`),
      );
      if (isRecord(json.usage)) usage = json.usage;
      for (const key of ['size', 'quality', 'background', 'output_format', 'created_at'] as const) {
        if (json[key] !== undefined) info[key] = json[key];
      }
    } else {
      context.trace('stream', `Ignored a "${type}" stream event.`);
    }
  }
  if (images.length === 0) throw droppedError(scope, 'before the final image arrived');
  if (images.length < request.count) {
    context.trace('warning', `OpenAI streamed ${images.length} of ${request.count} images.`, {
      received: images.length,
      requested: request.count,
    });
  }
  const output: ProviderOutput = { images };
  if (usage !== undefined) output.usage = usage;
  if (Object.keys(info).length > 0) output.info = { ...info, partialImages: partials };
  return output;
}

/** A broken preview is not worth failing a paid generation over: it is traced and skipped. */
function decodePartial(b64: unknown, scope: CallScope, context: ProviderContext, index: number): EncodedImage | null {
  try {
    if (typeof b64 !== 'string') throw malformedError(scope, 'a partial image without b64_json');
    return toImage(decodeBase64(b64, scope, `partial image ${index + 1}`), scope, `partial image ${index + 1}`);
  } catch (error) {
    context.trace(
      'warning',
      `Skipped partial preview ${index + 1}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return null;
  }
}

async function testConnection(config: ProviderConfig, signal: AbortSignal): Promise<ProviderTestResult> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let parsedBase: ReturnType<typeof parseBaseUrl>;
  try {
    parsedBase = parseBaseUrl(config.baseUrl, OPENAI_BASE_URL, PROVIDER);
  } catch (error) {
    return { ok: false, reachable: false, models: [], latencyMs: 0, message: (error as Error).message };
  }
  const { base, basic } = parsedBase;
  if (!(config.apiKey ?? '') && basic === undefined && new URL(base).hostname === 'api.openai.com') {
    return {
      ok: false,
      reachable: false,
      authenticated: false,
      models: [],
      latencyMs: 0,
      message: 'Add an OpenAI API key in settings first.',
    };
  }
  const deadline = new Deadline(signal, Math.min(config.timeoutMs, TEST_TIMEOUT_MS));
  const scope: CallScope = { provider: providerLabel(base), deadline, secrets: secretsOf(config, basic) };
  try {
    const response = await send(openAIUrl(base, 'models'), { headers: authHeaders(config, basic) }, scope);
    if (response.status === 401 || response.status === 403) {
      const error = await openAIResponseError(response, scope, config.maxResponseBytes);
      return {
        ok: false,
        reachable: true,
        authenticated: false,
        models: [],
        latencyMs: elapsed(),
        message: error.message,
      };
    }
    if (response.status !== 200) {
      const error = await openAIResponseError(response, scope, config.maxResponseBytes);
      return { ok: false, reachable: true, models: [], latencyMs: elapsed(), message: error.message };
    }
    const json = await readJson(response, config.maxResponseBytes, scope, 'the model list');
    const ids =
      isRecord(json) && Array.isArray(json.data)
        ? json.data
            .map((m) => (isRecord(m) && typeof m.id === 'string' ? m.id : null))
            .filter((id): id is string => id !== null)
        : [];
    const imageModels = ids.filter((id) => isGptImage(familyOf(id)) || id.startsWith('dall-e'));
    const models = (imageModels.length > 0 ? imageModels : ids).sort();
    return {
      ok: true,
      reachable: true,
      authenticated: true,
      models,
      latencyMs: elapsed(),
      message: `Connected to ${scope.provider}: ${models.length} image model${models.length === 1 ? '' : 's'} available.`,
    };
  } catch (error) {
    if (signal.aborted) throw new AppError('cancelled', 'Cancelled.', { retryable: false });
    const appError = error instanceof AppError ? error : networkError(error, scope, 'while listing models');
    const reachable = appError.code !== 'provider_unavailable' && appError.code !== 'timeout';
    return { ok: false, reachable, models: [], latencyMs: elapsed(), message: appError.message };
  } finally {
    deadline.dispose();
  }
}
