import type { ProviderTestResult } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { readJson } from '../http/body.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, networkError } from '../http/errors.js';
import { send } from '../http/request.js';
import { parseBaseUrl } from '../http/url.js';
import type { ProviderConfig } from '../types.js';
import { OPENAI_BASE_URL, PROVIDER, authHeaders, isRecord, openAIUrl, providerLabel, secretsOf } from './connection.js';
import { openAIResponseError } from './errors.js';
import { familyOf, isGptImage } from './models.js';

const TEST_TIMEOUT_MS = 15_000;

/** The connection test: GET /v1/models, keeping the image models when the server lists any. */
export async function testConnection(config: ProviderConfig, signal: AbortSignal): Promise<ProviderTestResult> {
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
    const count = `${models.length} image model${models.length === 1 ? '' : 's'}`;
    return {
      ok: true,
      reachable: true,
      authenticated: true,
      models,
      latencyMs: elapsed(),
      message: `Connected to ${scope.provider}: ${count} available.`,
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
