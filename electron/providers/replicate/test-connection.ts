import type { ProviderTestResult } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { readJson } from '../http/body.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, networkError } from '../http/errors.js';
import { send } from '../http/request.js';
import { joinUrl, parseBaseUrl } from '../http/url.js';
import type { ProviderConfig } from '../types.js';
import { PROVIDER, REPLICATE_BASE_URL, authHeaders, hasKey, isRecord, secretsOf } from './connection.js';
import { replicateResponseError } from './errors.js';
import { REPLICATE_MODELS } from './models.js';

const TEST_TIMEOUT_MS = 15_000;

/**
 * `GET /v1/account` is free and answers who the token belongs to, so it checks the token without running anything.
 * The models are the presets: Replicate's own list of every public model is far too long to offer as a picker.
 */
export async function testConnection(config: ProviderConfig, signal: AbortSignal): Promise<ProviderTestResult> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let base: string;
  try {
    base = parseBaseUrl(config.baseUrl, REPLICATE_BASE_URL, PROVIDER).base;
  } catch (error) {
    return { ok: false, reachable: false, models: [], latencyMs: 0, message: (error as Error).message };
  }
  if (!hasKey(config)) {
    const message = 'Add a Replicate API token in settings first.';
    return { ok: false, reachable: false, authenticated: false, models: [], latencyMs: 0, message };
  }
  const deadline = new Deadline(signal, Math.min(config.timeoutMs, TEST_TIMEOUT_MS));
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: secretsOf(config) };
  try {
    const response = await send(joinUrl(base, 'v1/account'), { headers: authHeaders(config) }, scope);
    if (response.status !== 200) {
      const error = await replicateResponseError(response, scope, config.maxResponseBytes);
      const authenticated = error.code === 'provider_auth' ? { authenticated: false } : {};
      return { ok: false, reachable: true, ...authenticated, models: [], latencyMs: elapsed(), message: error.message };
    }
    const json = await readJson(response, Math.min(config.maxResponseBytes, 64 * 1024), scope, 'the account');
    const who = isRecord(json) && typeof json.username === 'string' ? ` as ${json.username.slice(0, 80)}` : '';
    return {
      ok: true,
      reachable: true,
      authenticated: true,
      models: [...REPLICATE_MODELS],
      latencyMs: elapsed(),
      message: `Connected to ${PROVIDER}${who}: the token was accepted.`,
    };
  } catch (error) {
    if (signal.aborted) throw new AppError('cancelled', 'Cancelled.', { retryable: false });
    const appError = error instanceof AppError ? error : networkError(error, scope, 'while checking the token');
    const reachable = appError.code !== 'provider_unavailable' && appError.code !== 'timeout';
    return { ok: false, reachable, models: [], latencyMs: elapsed(), message: appError.message };
  } finally {
    deadline.dispose();
  }
}
