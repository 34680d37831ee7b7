import type { ProviderTestResult } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { readJson } from '../http/body.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, networkError } from '../http/errors.js';
import { send } from '../http/request.js';
import { parseBaseUrl } from '../http/url.js';
import type { ProviderConfig } from '../types.js';
import { GEMINI_BASE_URL, PROVIDER, authHeaders, geminiUrl, hasKey, isRecord, secretsOf } from './connection.js';
import { geminiResponseError } from './errors.js';

const TEST_TIMEOUT_MS = 15_000;

/** The connection test: GET /v1beta/models (free, checks the key), keeping the image models it lists. */
export async function testConnection(config: ProviderConfig, signal: AbortSignal): Promise<ProviderTestResult> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let base: string;
  try {
    base = parseBaseUrl(config.baseUrl, GEMINI_BASE_URL, PROVIDER).base;
  } catch (error) {
    return { ok: false, reachable: false, models: [], latencyMs: 0, message: (error as Error).message };
  }
  if (!hasKey(config)) {
    const message = 'Add a Google Gemini API key in settings first.';
    return { ok: false, reachable: false, authenticated: false, models: [], latencyMs: 0, message };
  }
  const deadline = new Deadline(signal, Math.min(config.timeoutMs, TEST_TIMEOUT_MS));
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: secretsOf(config) };
  try {
    const response = await send(geminiUrl(base, 'models?pageSize=1000'), { headers: authHeaders(config) }, scope);
    if (response.status !== 200) {
      const error = await geminiResponseError(response, scope, config.maxResponseBytes);
      const authenticated = error.code === 'provider_auth' ? { authenticated: false } : {};
      return { ok: false, reachable: true, ...authenticated, models: [], latencyMs: elapsed(), message: error.message };
    }
    const json = await readJson(response, config.maxResponseBytes, scope, 'the model list');
    const names = isRecord(json) && Array.isArray(json.models) ? json.models : [];
    const models = names
      .map((m) => (isRecord(m) && typeof m.name === 'string' ? m.name.replace(/^models\//, '') : null))
      .filter((id): id is string => id !== null && /image/i.test(id))
      .sort();
    const count = `${models.length} image model${models.length === 1 ? '' : 's'}`;
    return {
      ok: true,
      reachable: true,
      authenticated: true,
      models,
      latencyMs: elapsed(),
      message: `Connected to ${PROVIDER}: ${count} available.`,
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
