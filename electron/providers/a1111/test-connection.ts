import { AppError } from '../../../shared/errors.js';
import { readJson } from '../http/body.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, networkError } from '../http/errors.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import type { ProviderConfig, ProviderListing } from '../types.js';
import { type Credentials, PROVIDER, credentials } from './connection.js';
import { a1111ResponseError } from './errors.js';
import { checkpointsOf, listLibraryExtras } from './library-listing.js';

const TEST_TIMEOUT_MS = 15_000;

/** The connection test: the checkpoints (kept as the model list), the sampler count, the upscalers and the model library's lists. */
export async function testConnection(config: ProviderConfig, signal: AbortSignal): Promise<ProviderListing> {
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
    const [modelsRes, samplersRes, upscalers, extras] = await Promise.all([
      send(joinUrl(creds.base, 'sdapi/v1/sd-models'), { headers: creds.headers }, scope),
      send(joinUrl(creds.base, 'sdapi/v1/samplers'), { headers: creds.headers }, scope),
      listUpscalers(creds, config, scope),
      listLibraryExtras(creds, config.maxResponseBytes, scope),
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
      library: [...checkpointsOf(modelsJson), ...extras],
      latencyMs: elapsed(),
      message:
        `Connected to A1111: ${models.length} model${models.length === 1 ? '' : 's'}, ${samplers} ` +
        `sampler${samplers === 1 ? '' : 's'}.`,
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
