import type { ProviderTestResult } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, networkError } from '../http/errors.js';
import { send } from '../http/request.js';
import { parseBaseUrl } from '../http/url.js';
import type { ProviderConfig } from '../types.js';
import { FAL_QUEUE_URL, PROVIDER, authHeaders, hasKey, secretsOf } from './connection.js';
import { falResponseError } from './errors.js';
import { DEFAULT_FAL_MODEL, FAL_MODELS } from './models.js';
import { queueUrlsFor } from './queue-paths.js';

const TEST_TIMEOUT_MS = 15_000;
const PROBE_ID = 'atelier-connection-test';

/**
 * fal's queue has no free "who am I" call (docs/hosted-protocols.md §1.3), so the test asks for the status of a
 * request that does not exist: free, authenticated, and a bad key answers 401/403 while a good one hears 404. The
 * model list is Atelier's presets: fal's catalogue is hundreds of models, and any id can be typed.
 */
export async function testConnection(config: ProviderConfig, signal: AbortSignal): Promise<ProviderTestResult> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let base: string;
  try {
    base = parseBaseUrl(config.baseUrl, FAL_QUEUE_URL, PROVIDER).base;
  } catch (error) {
    return { ok: false, reachable: false, models: [], latencyMs: 0, message: (error as Error).message };
  }
  if (!hasKey(config)) {
    const message = 'Add a fal.ai API key in settings first.';
    return { ok: false, reachable: false, authenticated: false, models: [], latencyMs: 0, message };
  }
  const deadline = new Deadline(signal, Math.min(config.timeoutMs, TEST_TIMEOUT_MS));
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: secretsOf(config) };
  try {
    const url = queueUrlsFor(base, DEFAULT_FAL_MODEL, PROBE_ID).statusUrl;
    const response = await send(url, { headers: authHeaders(config) }, scope);
    if (response.status === 401 || response.status === 403 || response.status >= 500) {
      const error = await falResponseError(response, scope, config.maxResponseBytes, {
        model: DEFAULT_FAL_MODEL,
        phase: 'before_accept',
      });
      const authenticated = error.code === 'provider_auth' ? { authenticated: false } : {};
      return { ok: false, reachable: true, ...authenticated, models: [], latencyMs: elapsed(), message: error.message };
    }
    await response.body?.cancel().catch(() => undefined);
    return {
      ok: true,
      reachable: true,
      authenticated: true,
      models: [...FAL_MODELS],
      latencyMs: elapsed(),
      message: `Connected to ${PROVIDER}: the key was accepted (checked by asking for a request that does not exist).`,
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
