import type { ProviderTestResult } from '../../../shared/contract.js';
import { runKeyTest } from '../http/key-test.js';
import { readJson } from '../http/body.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import type { ProviderConfig } from '../types.js';
import { PROVIDER, STABILITY_BASE_URL, authHeaders, isRecord, secretsOf } from './connection.js';
import { stabilityResponseError } from './errors.js';
import { STABILITY_MODELS } from './models.js';

/**
 * The connection test: GET /v1/user/balance, free and authenticated, which also says how many credits are left.
 * Stability lists no v2 models (its v1 engines list names retired v1 engines), so the models are the known presets.
 */
export async function testConnection(config: ProviderConfig, signal: AbortSignal): Promise<ProviderTestResult> {
  const options = {
    provider: PROVIDER,
    defaultBase: STABILITY_BASE_URL,
    missingKey: 'Add a Stability AI API key in settings first.',
    secrets: secretsOf(config),
    doing: 'while checking the key',
  };
  return runKeyTest(config, signal, options, async ({ base, scope, elapsed, refused }) => {
    const response = await send(joinUrl(base, 'v1/user/balance'), { headers: authHeaders(config) }, scope);
    if (response.status !== 200) {
      const error = await stabilityResponseError(response, scope, config.maxResponseBytes);
      return refused(error);
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
  });
}
