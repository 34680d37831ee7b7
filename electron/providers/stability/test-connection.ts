import type { ProviderTestResult } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { readJson } from '../http/body.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, networkError } from '../http/errors.js';
import { send } from '../http/request.js';
import { joinUrl, parseBaseUrl } from '../http/url.js';
import type { ProviderConfig } from '../types.js';
import { PROVIDER, STABILITY_BASE_URL, authHeaders, hasKey, isRecord, secretsOf } from './connection.js';
import { stabilityResponseError } from './errors.js';
import { STABILITY_MODELS } from './models.js';

const TEST_TIMEOUT_MS = 15_000;

/**
 * The connection test: GET /v1/user/balance, free and authenticated, which also says how many credits are left.
 * Stability lists no v2 models (its v1 engines list names retired v1 engines), so the models are the known presets.
 */
export async function testConnection(config: ProviderConfig, signal: AbortSignal): Promise<ProviderTestResult> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let base: string;
  try {
    base = parseBaseUrl(config.baseUrl, STABILITY_BASE_URL, PROVIDER).base;
  } catch (error) {
    return { ok: false, reachable: false, models: [], latencyMs: 0, message: (error as Error).message };
  }
  if (!hasKey(config)) {
    const message = 'Add a Stability AI API key in settings first.';
    return { ok: false, reachable: false, authenticated: false, models: [], latencyMs: 0, message };
  }
  const deadline = new Deadline(signal, Math.min(config.timeoutMs, TEST_TIMEOUT_MS));
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: secretsOf(config) };
  try {
    const response = await send(joinUrl(base, 'v1/user/balance'), { headers: authHeaders(config) }, scope);
    if (response.status !== 200) {
      const error = await stabilityResponseError(response, scope, config.maxResponseBytes);
      const authenticated = error.code === 'provider_auth' ? { authenticated: false } : {};
      return { ok: false, reachable: true, ...authenticated, models: [], latencyMs: elapsed(), message: error.message };
    }
    const json = await readJson(response, config.maxResponseBytes, scope, 'the balance');
    const credits =
      isRecord(json) && typeof json.credits === 'number' && Number.isFinite(json.credits) ? json.credits : undefined;
    const left = credits === undefined ? 'the key was accepted' : `${Math.floor(credits * 100) / 100} credits left`;
    return {
      ok: true,
      reachable: true,
      authenticated: true,
      models: [...STABILITY_MODELS],
      latencyMs: elapsed(),
      message: `Connected to ${PROVIDER}: ${left}.`,
      ...(credits !== undefined && credits <= 0
        ? { hint: 'The account has no credits left: jobs will fail until credits are bought at platform.stability.ai.' }
        : {}),
    };
  } catch (error) {
    if (signal.aborted) throw new AppError('cancelled', 'Cancelled.', { retryable: false });
    const appError = error instanceof AppError ? error : networkError(error, scope, 'while checking the key');
    const reachable = appError.code !== 'provider_unavailable' && appError.code !== 'timeout';
    return { ok: false, reachable, models: [], latencyMs: elapsed(), message: appError.message };
  } finally {
    deadline.dispose();
  }
}
