import type { ProviderTestResult } from '../../../shared/contract.js';
import { runKeyTest } from '../http/key-test.js';
import { readJson } from '../http/body.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import type { ProviderConfig } from '../types.js';
import { PROVIDER, REPLICATE_BASE_URL, authHeaders, isRecord, secretsOf } from './connection.js';
import { replicateResponseError } from './errors.js';
import { REPLICATE_MODELS } from './models.js';

/**
 * `GET /v1/account` is free and answers who the token belongs to, so it checks the token without running anything.
 * The models are the presets: Replicate's own list of every public model is far too long to offer as a picker.
 */
export async function testConnection(config: ProviderConfig, signal: AbortSignal): Promise<ProviderTestResult> {
  const options = {
    provider: PROVIDER,
    defaultBase: REPLICATE_BASE_URL,
    missingKey: 'Add a Replicate API token in settings first.',
    secrets: secretsOf(config),
    doing: 'while checking the token',
  };
  return runKeyTest(config, signal, options, async ({ base, scope, elapsed, refused }) => {
    const response = await send(joinUrl(base, 'v1/account'), { headers: authHeaders(config) }, scope);
    if (response.status !== 200) {
      const error = await replicateResponseError(response, scope, config.maxResponseBytes);
      return refused(error);
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
  });
}
