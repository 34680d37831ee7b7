import type { ProviderTestResult } from '../../../shared/contract.js';
import { runKeyTest } from '../http/key-test.js';
import { readJson } from '../http/body.js';
import { send } from '../http/request.js';
import type { ProviderConfig } from '../types.js';
import { GEMINI_BASE_URL, PROVIDER, authHeaders, geminiUrl, isRecord, secretsOf } from './connection.js';
import { geminiResponseError } from './errors.js';

/** The connection test: GET /v1beta/models (free, checks the key), keeping the image models it lists. */
export async function testConnection(config: ProviderConfig, signal: AbortSignal): Promise<ProviderTestResult> {
  const options = {
    provider: PROVIDER,
    defaultBase: GEMINI_BASE_URL,
    missingKey: 'Add a Google Gemini API key in settings first.',
    secrets: secretsOf(config),
    doing: 'while listing models',
  };
  return runKeyTest(config, signal, options, async ({ base, scope, elapsed, refused }) => {
    const response = await send(geminiUrl(base, 'models?pageSize=1000'), { headers: authHeaders(config) }, scope);
    if (response.status !== 200) {
      const error = await geminiResponseError(response, scope, config.maxResponseBytes);
      return refused(error);
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
  });
}
