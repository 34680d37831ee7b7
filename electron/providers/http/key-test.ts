import type { ProviderTestResult } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { ProviderConfig } from '../types.js';
import { hasKey } from './api-key.js';
import { Deadline } from './deadline.js';
import { type CallScope, networkError } from './errors.js';
import { parseBaseUrl } from './url.js';

/** A connection test is quick or says why not: never longer than this, whatever the provider's own timeout. */
export const KEY_TEST_TIMEOUT_MS = 15_000;

export interface KeyTestCall {
  base: string;
  scope: CallScope;
  /** Milliseconds since the test began. */
  elapsed(): number;
  /** The answer for a provider that refused the call (a bad key says so as `authenticated: false`). */
  refused(error: AppError): ProviderTestResult;
}

export interface KeyTestOptions {
  provider: string;
  defaultBase: string;
  /** What the test says with no key set ("Add a … API key in settings first."). */
  missingKey: string;
  secrets: string[];
  /** What the test was doing, for a network failure's words ("while checking the key"). */
  doing: string;
}

/**
 * The connection test every hosted provider with an API key shares: the base URL and the key checked before anything
 * is sent, one bounded deadline, a network failure or a refusal turned into a result (never thrown), a cancel thrown.
 * `probe` makes the provider's own cheapest authenticated call.
 */
export async function runKeyTest(
  config: ProviderConfig,
  signal: AbortSignal,
  options: KeyTestOptions,
  probe: (call: KeyTestCall) => Promise<ProviderTestResult>,
): Promise<ProviderTestResult> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let base: string;
  try {
    base = parseBaseUrl(config.baseUrl, options.defaultBase, options.provider).base;
  } catch (error) {
    return { ok: false, reachable: false, models: [], latencyMs: 0, message: (error as Error).message };
  }
  if (!hasKey(config)) {
    return { ok: false, reachable: false, authenticated: false, models: [], latencyMs: 0, message: options.missingKey };
  }
  const deadline = new Deadline(signal, Math.min(config.timeoutMs, KEY_TEST_TIMEOUT_MS));
  const scope: CallScope = { provider: options.provider, deadline, secrets: options.secrets };
  const refused = (error: AppError): ProviderTestResult => ({
    ok: false,
    reachable: true,
    ...(error.code === 'provider_auth' ? { authenticated: false } : {}),
    models: [],
    latencyMs: elapsed(),
    message: error.message,
  });
  try {
    return await probe({ base, scope, elapsed, refused });
  } catch (error) {
    if (signal.aborted) throw new AppError('cancelled', 'Cancelled.', { retryable: false });
    const appError = error instanceof AppError ? error : networkError(error, scope, options.doing);
    const reachable = appError.code !== 'provider_unavailable' && appError.code !== 'timeout';
    return { ok: false, reachable, models: [], latencyMs: elapsed(), message: appError.message };
  } finally {
    deadline.dispose();
  }
}
