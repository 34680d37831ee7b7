import { AppError } from '../../../shared/errors.js';
import type { ProviderConfig } from '../types.js';
import { hasKey, keySecrets } from './api-key.js';
import { Deadline } from './deadline.js';
import type { CallScope } from './errors.js';
import { parseBaseUrl } from './url.js';

export interface KeyedCall {
  base: string;
  deadline: Deadline;
  scope: CallScope;
}

/**
 * How a hosted provider's job call begins: its base URL checked, its key required (refused before anything is sent,
 * so nothing is billed), and one deadline on the caller's signal. The caller disposes of the deadline.
 */
export function openKeyedCall(
  config: ProviderConfig,
  signal: AbortSignal,
  timeoutMs: number,
  call: { provider: string; defaultBase: string; missingKey: string },
): KeyedCall {
  const { base } = parseBaseUrl(config.baseUrl, call.defaultBase, call.provider);
  if (!hasKey(config)) {
    throw new AppError('provider_auth', call.missingKey, { retryable: false, details: { phase: 'before_accept' } });
  }
  const deadline = new Deadline(signal, timeoutMs);
  return { base, deadline, scope: { provider: call.provider, deadline, secrets: keySecrets(config) } };
}
