import type { ProviderTestResult } from '../../../shared/contract.js';
import { runKeyTest } from '../http/key-test.js';
import { send } from '../http/request.js';
import type { ProviderConfig } from '../types.js';
import { FAL_QUEUE_URL, PROVIDER, authHeaders, secretsOf } from './connection.js';
import { falResponseError } from './errors.js';
import { DEFAULT_FAL_MODEL, FAL_MODELS } from './models.js';
import { queueUrlsFor } from './queue-paths.js';

const PROBE_ID = 'atelier-connection-test';

/**
 * fal's queue has no free "who am I" call (docs/hosted-protocols.md §1.3), so the test asks for the status of a
 * request that does not exist: free, authenticated, and a bad key answers 401/403 while a good one hears 404. The
 * model list is Atelier's presets: fal's catalogue is hundreds of models, and any id can be typed.
 */
export async function testConnection(config: ProviderConfig, signal: AbortSignal): Promise<ProviderTestResult> {
  const options = {
    provider: PROVIDER,
    defaultBase: FAL_QUEUE_URL,
    missingKey: 'Add a fal.ai API key in settings first.',
    secrets: secretsOf(config),
    doing: 'while checking the key',
  };
  return runKeyTest(config, signal, options, async ({ base, scope, elapsed, refused }) => {
    const url = queueUrlsFor(base, DEFAULT_FAL_MODEL, PROBE_ID).statusUrl;
    const response = await send(url, { headers: authHeaders(config) }, scope);
    if (response.status === 401 || response.status === 403 || response.status >= 500) {
      const error = await falResponseError(response, scope, config.maxResponseBytes, {
        model: DEFAULT_FAL_MODEL,
        phase: 'before_accept',
      });
      return refused(error);
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
  });
}
