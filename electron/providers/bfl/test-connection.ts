import type { ProviderTestResult } from '../../../shared/contract.js';
import { runKeyTest } from '../http/key-test.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import type { ProviderConfig } from '../types.js';
import { BFL_BASE_URL, PROVIDER, authHeaders, secretsOf } from './connection.js';
import { bflResponseError } from './errors.js';
import { BFL_MODELS } from './models.js';

const PROBE_ID = 'atelier-connection-test';

/**
 * BFL documents no free "who am I" call (docs/hosted-protocols.md §1.2), so the test asks for the result of a task
 * that does not exist: free, authenticated, and a bad key answers 401/403 while a good one hears "Task not found".
 */
export async function testConnection(config: ProviderConfig, signal: AbortSignal): Promise<ProviderTestResult> {
  const options = {
    provider: PROVIDER,
    defaultBase: BFL_BASE_URL,
    missingKey: 'Add a Black Forest Labs API key in settings first.',
    secrets: secretsOf(config),
    doing: 'while checking the key',
  };
  return runKeyTest(config, signal, options, async ({ base, scope, elapsed, refused }) => {
    const url = joinUrl(base, 'v1/get_result', { id: PROBE_ID });
    const response = await send(url, { headers: authHeaders(config) }, scope);
    if (response.status === 401 || response.status === 403 || (response.status >= 500 && response.status !== 404)) {
      const error = await bflResponseError(response, scope, config.maxResponseBytes);
      return refused(error);
    }
    await response.body?.cancel().catch(() => undefined);
    return {
      ok: true,
      reachable: true,
      authenticated: true,
      models: [...BFL_MODELS],
      latencyMs: elapsed(),
      message: `Connected to ${PROVIDER}: the key was accepted (checked by asking for a task that does not exist).`,
    };
  });
}
