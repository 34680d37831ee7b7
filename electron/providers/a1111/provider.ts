import { randomUUID } from 'node:crypto';
import { type GenerateRequest, type ProviderCapabilities, operationOf } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { formatSeed, seedToBigInt } from '../../../shared/seed.js';
import { readJson } from '../http/body.js';
import { Deadline, sleep } from '../http/deadline.js';
import { type CallScope, abortedError, malformedError, networkError } from '../http/errors.js';
import { decodeDataUri, toImage } from '../http/image.js';
import { send } from '../http/request.js';
import { basicHeader, joinUrl, parseBaseUrl } from '../http/url.js';
import type {
  GeneratedImage,
  Provider,
  ProviderConfig,
  ProviderContext,
  ProviderListing,
  ProviderOutput,
} from '../types.js';
import { a1111ResponseError } from './errors.js';
import { a1111Operations, img2imgFields, requireInputs, validateA1111Operation } from './operations.js';
import { ProgressPoller } from './progress.js';
import { a1111Upscale } from './upscale.js';

export const A1111_BASE_URL = 'http://127.0.0.1:7860';
const PROVIDER = 'A1111';
/** A1111 seeds its RNG with a 32-bit value: -1 (random) or 0 … 2^32-1. */
const A1111_MAX_SEED = 0xffffffffn;
const TEST_TIMEOUT_MS = 15_000;
/**
 * The API defaults differ from the UI (steps 50, sampler "Euler"), so these are always sent
 * (docs/provider-protocols.md §7.7).
 */
export const A1111_DEFAULTS = { steps: 20, cfgScale: 7, sampler: 'Euler a', scheduler: 'Automatic' } as const;
const SAMPLERS = [
  'Euler a',
  'Euler',
  'DPM++ 2M',
  'DPM++ SDE',
  'DPM++ 2M SDE',
  'DPM++ 3M SDE',
  'UniPC',
  'DDIM',
  'Heun',
  'LMS',
];

export interface A1111ProviderOptions {
  /** How often progress is polled while txt2img blocks. */
  pollIntervalMs?: number;
  /** After an interrupt, how long to wait for the blocked txt2img to return before dropping the connection. */
  cancelGraceMs?: number;
}

interface Credentials {
  base: string;
  headers: Record<string, string>;
  secrets: string[];
}

function credentials(config: ProviderConfig): Credentials {
  const { base, basic } = parseBaseUrl(config.baseUrl, A1111_BASE_URL, PROVIDER);
  const username = config.username ?? basic?.username;
  const password = config.password ?? basic?.password;
  const headers = username !== undefined && username !== '' ? basicHeader(username, password ?? '') : {};
  return {
    base,
    headers,
    secrets: [password, config.apiKey].filter((s): s is string => typeof s === 'string' && s !== ''),
  };
}

function capabilities(config: ProviderConfig): ProviderCapabilities {
  return {
    sizes: {
      min: 64,
      max: 2048,
      multipleOf: 8,
      presets: [
        [512, 512],
        [768, 768],
        [1024, 1024],
        [832, 1216],
        [1216, 832],
        [896, 1152],
        [1152, 896],
      ],
    },
    maxCount: 10,
    steps: { min: 1, max: 150, default: A1111_DEFAULTS.steps },
    guidance: { min: 1, max: 30, default: A1111_DEFAULTS.cfgScale },
    seed: true,
    negativePrompt: true,
    maxPartialImages: 3,
    outputFormats: ['png'],
    operations: a1111Operations(config),
    samplers: SAMPLERS,
  };
}

function invalid(message: string, field: string): AppError {
  return new AppError('invalid_request', message, { details: { field } });
}

function validate(request: GenerateRequest, config: ProviderConfig): void {
  credentials(config);
  validateA1111Operation(request, config);
  // An upscale's size is its source's times the factor; the request's width and height do not apply.
  if (request.upscale !== undefined) return;
  const caps = capabilities(config);
  if (request.width > caps.sizes.max || request.height > caps.sizes.max)
    throw invalid(`A1111 sizes go up to ${caps.sizes.max}x${caps.sizes.max} here.`, 'width');
  if (request.width % 8 !== 0 || request.height % 8 !== 0)
    throw invalid(`A1111 needs a width and height divisible by 8 (got ${request.width}x${request.height}).`, 'width');
  if (request.guidance !== undefined && request.guidance < 1)
    throw invalid('A1111 needs a CFG scale of at least 1.', 'guidance');
  if (request.seed !== undefined && seedToBigInt(request.seed) > A1111_MAX_SEED) {
    const message = `A1111 seeds go up to ${A1111_MAX_SEED} (a 32-bit number); ${formatSeed(request.seed)} is larger. Nothing was sent.`;
    // `fields` puts the message under the Composer's seed field (a 64-bit seed reused from a ComfyUI image lands here).
    throw new AppError('invalid_request', message, { details: { field: 'seed', fields: { seed: message } } });
  }
  if (request.quality !== undefined)
    throw invalid('A1111 has no quality setting: use steps and the sampler instead.', 'quality');
  if (request.background !== undefined) throw invalid('A1111 has no background setting.', 'background');
  if (request.outputFormat !== undefined && request.outputFormat !== 'png')
    throw invalid('Atelier asks A1111 for PNG only.', 'outputFormat');
}

/** POST /sdapi/v1/txt2img body: one batch of `count` images, never saved there (docs/provider-protocols.md §2.3). */
export function txt2imgBody(
  request: GenerateRequest,
  model: string | undefined,
  taskId: string,
): Record<string, unknown> {
  return {
    prompt: request.prompt,
    negative_prompt: request.negativePrompt ?? '',
    seed: request.seed ?? -1,
    steps: request.steps ?? A1111_DEFAULTS.steps,
    cfg_scale: request.guidance ?? A1111_DEFAULTS.cfgScale,
    width: request.width,
    height: request.height,
    sampler_name: request.sampler ?? A1111_DEFAULTS.sampler,
    scheduler: request.scheduler ?? A1111_DEFAULTS.scheduler,
    batch_size: request.count,
    n_iter: 1,
    send_images: true,
    save_images: false,
    override_settings: model === undefined ? {} : { sd_model_checkpoint: model },
    override_settings_restore_afterwards: true,
    force_task_id: taskId,
  };
}

/**
 * AUTOMATIC1111 / Forge / SD.Next. txt2img blocks for the whole generation while progress and live previews are
 * polled by task id. Cancel = the global interrupt (sent only when our task is the running one).
 */
export function createA1111Provider(options: A1111ProviderOptions = {}): Provider {
  const pollIntervalMs = options.pollIntervalMs ?? 400;
  const cancelGraceMs = options.cancelGraceMs ?? 3_000;
  return {
    id: 'a1111',
    name: 'AUTOMATIC1111 / Forge',
    capabilities: (config) => capabilities(config),
    knownModels: (config) => (config.model === undefined || config.model === '' ? [] : [config.model]),
    // Without a model A1111 runs the checkpoint it has loaded, so none is ever required.
    listsModels: true,
    // The base URL defaults to http://127.0.0.1:7860, so A1111 is always configured; `enabled` is a separate setting.
    isConfigured: (config) => {
      try {
        credentials(config);
        return true;
      } catch {
        return false;
      }
    },
    validate,
    generate: (request, config, context) => generate(request, config, context, pollIntervalMs, cancelGraceMs),
    test: (config, signal) => testConnection(config, signal),
  };
}

type Outcome = { ok: true; output: ProviderOutput } | { ok: false; error: unknown };

async function generate(
  request: GenerateRequest,
  config: ProviderConfig,
  context: ProviderContext,
  pollIntervalMs: number,
  cancelGraceMs: number,
): Promise<ProviderOutput> {
  validate(request, config);
  const op = operationOf(request);
  const operation = 'operation' in op ? op.operation : 'generate';
  const inputs =
    operation === 'generate' || operation === 'variation' ? undefined : requireInputs(request, context.inputs);
  const { base, headers, secrets } = credentials(config);
  const model = request.model ?? config.model;
  const deadline = new Deadline(context.signal, request.timeoutMs ?? config.timeoutMs);
  const scope: CallScope = { provider: PROVIDER, deadline, secrets };
  if (operation === 'upscale') {
    try {
      return await a1111Upscale(request, inputs!.image, { base, headers, config }, scope, context);
    } catch (error) {
      throw error instanceof AppError ? error : networkError(error, scope, 'while A1111 was upscaling');
    } finally {
      deadline.dispose();
    }
  }
  // img2img blocks, polls and cancels exactly as txt2img does: only the route and the body's image fields differ.
  const route = inputs === undefined ? 'txt2img' : 'img2img';
  const taskId = `atelier-${randomUUID()}`;
  let accepted = false;
  const accept = (how: string) => {
    if (accepted) return;
    accepted = true;
    context.onAccepted();
    context.trace('accepted', `A1111 took the task (${how}).`, { taskId });
  };
  // The POST has its own controller: on cancel it must stay open until A1111 answers the interrupt.
  const post = new AbortController();
  const poller = new ProgressPoller({
    base,
    headers,
    taskId,
    intervalMs: pollIntervalMs,
    wantPreview: request.partialImages !== 0,
    scope,
    context,
    onRegistered: () => accept('seen in its progress'),
  });

  try {
    const body = {
      ...txt2imgBody(request, model, taskId),
      ...(inputs === undefined ? {} : img2imgFields(request, inputs.image, inputs.mask)),
    };
    const strength =
      inputs === undefined
        ? ''
        : `, strength ${String(body.denoising_strength)}${inputs.mask === undefined ? '' : ', masked'}`;
    context.trace(
      'request',
      `POST /sdapi/v1/${route} (${body.steps} steps, ${String(body.sampler_name)}, batch ${request.count}${strength})`,
      { taskId, model },
    );
    context.onProgress({ stage: 'submitting', fraction: 0 });
    const outcome: Promise<Outcome> = (async () => {
      const response = await send(
        joinUrl(base, `sdapi/v1/${route}`),
        { method: 'POST', headers, json: body, signal: post.signal },
        scope,
        'while A1111 was generating',
      );
      if (response.status !== 200) throw await a1111ResponseError(response, scope, `${route} API`);
      accept(`${route} answered`);
      return parseResult(
        await readJson(response, config.maxResponseBytes, scope, `the ${route} response`),
        scope,
        context,
        taskId,
        route,
      );
    })().then(
      (output) => ({ ok: true as const, output }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    poller.start();
    const aborted = new Promise<'aborted'>((resolve) => {
      if (deadline.signal.aborted) resolve('aborted');
      else deadline.signal.addEventListener('abort', () => resolve('aborted'), { once: true });
    });
    const first = await Promise.race([outcome, aborted]);
    if (first !== 'aborted') {
      await poller.stop();
      if (first.ok) return first.output;
      throw first.error;
    }
    await poller.stop();
    const interrupted = await stopRemoteTask(poller, base, headers, context, deadline.reason ?? 'cancel');
    // Without an interrupt nothing will make the blocked call return soon: do not wait for it.
    const late = interrupted ? await Promise.race([outcome, sleep(cancelGraceMs).then(() => null)]) : null;
    post.abort();
    // Decision: cancel wins. Whatever A1111 returns after the interrupt (partially denoised, or nothing) is
    // discarded, and the trace records how many images were dropped.
    if (late?.ok === true) {
      context.trace(
        'cancel',
        `A1111 returned ${late.output.images.length} partial image(s) after the interrupt; discarded because the job was ${deadline.reason === 'timeout' ? 'timed out' : 'cancelled'}.`,
        {
          discardedImages: late.output.images.length,
        },
      );
    }
    throw abortedError(scope, true);
  } catch (error) {
    throw error instanceof AppError ? error : networkError(error, scope, 'while A1111 was generating');
  } finally {
    post.abort();
    await poller.stop();
    deadline.dispose();
  }
}

/** A1111's interrupt is global: send it only when our task is the one running, never to stop someone else's. */
async function stopRemoteTask(
  poller: ProgressPoller,
  base: string,
  headers: Record<string, string>,
  context: ProviderContext,
  why: 'cancel' | 'timeout',
): Promise<boolean> {
  const state = await poller.refresh();
  if (!state.active) {
    context.trace(
      'cancel',
      state.queued
        ? 'A1111 had not started the task yet; its queue cannot be edited over the API, so it may still run later. No interrupt sent.'
        : 'The task was not running on A1111; no interrupt sent.',
    );
    return false;
  }
  try {
    const response = await fetch(joinUrl(base, 'sdapi/v1/interrupt'), {
      method: 'POST',
      headers: { ...headers, accept: 'application/json' },
      signal: AbortSignal.timeout(5_000),
    });
    await response.body?.cancel();
    context.trace('cancel', `Sent /sdapi/v1/interrupt to A1111 (${why}); HTTP ${response.status}.`, {
      status: response.status,
      mode: poller.mode,
    });
    return response.status === 200;
  } catch (error) {
    context.trace(
      'warning',
      `Could not send the interrupt to A1111: ${error instanceof Error ? error.message : String(error)}`,
    );
    return false;
  }
}

function parseResult(
  json: unknown,
  scope: CallScope,
  context: ProviderContext,
  taskId: string,
  route: string,
): ProviderOutput {
  if (json === null || typeof json !== 'object' || !Array.isArray((json as { images?: unknown }).images)) {
    throw malformedError(scope, `a ${route} response without an "images" list`);
  }
  const body = json as { images: unknown[]; info?: unknown };
  let info: Record<string, unknown> = {};
  // `info` is a JSON string inside the JSON (docs/provider-protocols.md §7.8): parse it a second time.
  if (typeof body.info === 'string') {
    try {
      const parsed = JSON.parse(body.info) as unknown;
      if (parsed !== null && typeof parsed === 'object') info = parsed as Record<string, unknown>;
    } catch {
      context.trace('warning', 'A1111 sent an "info" string that is not JSON; seeds and infotexts are unknown.');
    }
  }
  const first = typeof info.index_of_first_image === 'number' ? info.index_of_first_image : 0;
  // With batch > 1 and grids on, the grid comes first; it is not one of the requested images.
  const payloads = body.images.slice(first);
  if (payloads.length === 0) throw malformedError(scope, `a ${route} response with no images`);
  const seeds = Array.isArray(info.all_seeds) ? info.all_seeds : [];
  const baseSeed = typeof info.seed === 'number' ? info.seed : undefined;
  const images: GeneratedImage[] = payloads.map((payload, i) => {
    if (typeof payload !== 'string') throw malformedError(scope, `image ${i + 1} that is not a base64 string`);
    const { data } = decodeDataUri(payload, scope, `image ${i + 1}`);
    const image: GeneratedImage = toImage(data, scope, `image ${i + 1}`);
    const seed = seeds[i];
    if (typeof seed === 'number') image.seed = seed;
    else if (baseSeed !== undefined) image.seed = baseSeed + i;
    return image;
  });
  const output: ProviderOutput = { images, info: { taskId } };
  if (baseSeed !== undefined) output.seed = baseSeed;
  for (const key of [
    'infotexts',
    'all_seeds',
    'sd_model_name',
    'sd_model_hash',
    'sampler_name',
    'version',
    'job_timestamp',
  ] as const) {
    if (info[key] !== undefined) output.info![key] = info[key];
  }
  if (first > 0) output.info!.gridSkipped = true;
  return output;
}

async function testConnection(config: ProviderConfig, signal: AbortSignal): Promise<ProviderListing> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let creds: Credentials;
  try {
    creds = credentials(config);
  } catch (error) {
    return { ok: false, reachable: false, models: [], latencyMs: 0, message: (error as Error).message };
  }
  const deadline = new Deadline(signal, Math.min(config.timeoutMs, TEST_TIMEOUT_MS));
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: creds.secrets };
  try {
    const [modelsRes, samplersRes, upscalers] = await Promise.all([
      send(joinUrl(creds.base, 'sdapi/v1/sd-models'), { headers: creds.headers }, scope),
      send(joinUrl(creds.base, 'sdapi/v1/samplers'), { headers: creds.headers }, scope),
      listUpscalers(creds, config, scope),
    ]);
    for (const response of [modelsRes, samplersRes]) {
      if (response.status !== 200) {
        const other = response === modelsRes ? samplersRes : modelsRes;
        await other.body?.cancel();
        const error = await a1111ResponseError(response, scope, 'API');
        return {
          ok: false,
          reachable: true,
          ...(response.status === 401 ? { authenticated: false } : {}),
          models: [],
          latencyMs: elapsed(),
          message: error.message,
        };
      }
    }
    const modelsJson = await readJson(modelsRes, config.maxResponseBytes, scope, 'the model list');
    const samplersJson = await readJson(samplersRes, config.maxResponseBytes, scope, 'the sampler list');
    const models = Array.isArray(modelsJson)
      ? modelsJson
          .map((m) =>
            m !== null && typeof m === 'object' && typeof (m as { model_name?: unknown }).model_name === 'string'
              ? (m as { model_name: string }).model_name
              : null,
          )
          .filter((m): m is string => m !== null)
      : [];
    const samplers = Array.isArray(samplersJson) ? samplersJson.length : 0;
    return {
      ok: true,
      reachable: true,
      authenticated: true,
      models,
      ...(upscalers === undefined ? {} : { upscalers }),
      latencyMs: elapsed(),
      message: `Connected to A1111: ${models.length} model${models.length === 1 ? '' : 's'}, ${samplers} sampler${samplers === 1 ? '' : 's'}.`,
    };
  } catch (error) {
    if (signal.aborted) throw new AppError('cancelled', 'Cancelled.', { retryable: false });
    const appError = error instanceof AppError ? error : networkError(error, scope, 'while listing models');
    return {
      ok: false,
      reachable: appError.code !== 'provider_unavailable' && appError.code !== 'timeout',
      models: [],
      latencyMs: elapsed(),
      message: appError.message,
    };
  } finally {
    deadline.dispose();
  }
}

/** GET /sdapi/v1/upscalers: their names (what upscaler_1 takes). A server that will not list them still connects. */
async function listUpscalers(
  creds: Credentials,
  config: ProviderConfig,
  scope: CallScope,
): Promise<string[] | undefined> {
  try {
    const response = await send(joinUrl(creds.base, 'sdapi/v1/upscalers'), { headers: creds.headers }, scope);
    if (response.status !== 200) {
      await response.body?.cancel();
      return undefined;
    }
    const json = await readJson(response, config.maxResponseBytes, scope, 'the upscaler list');
    if (!Array.isArray(json)) return undefined;
    return json
      .map((u) =>
        u !== null && typeof u === 'object' && typeof (u as { name?: unknown }).name === 'string'
          ? (u as { name: string }).name
          : null,
      )
      .filter((n): n is string => n !== null);
  } catch {
    return undefined;
  }
}
