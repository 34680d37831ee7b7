import type { Provider } from '../types.js';
import { capabilities, validate } from './capabilities.js';
import { credentials } from './connection.js';
import { generate } from './generate.js';
import { testConnection } from './test-connection.js';

export { A1111_BASE_URL } from './connection.js';
export { A1111_DEFAULTS } from './capabilities.js';
export { txt2imgBody } from './request.js';

export interface A1111ProviderOptions {
  /** How often progress is polled while txt2img blocks. */
  pollIntervalMs?: number;
  /** After an interrupt, how long to wait for the blocked txt2img to return before dropping the connection. */
  cancelGraceMs?: number;
}

/**
 * AUTOMATIC1111 / Forge / SD.Next: the job's hooks are in generate.ts (upscale.ts for extras), the checks in
 * capabilities.ts, the connection test in test-connection.ts.
 */
export function createA1111Provider(options: A1111ProviderOptions = {}): Provider {
  const run = { pollIntervalMs: options.pollIntervalMs ?? 400, cancelGraceMs: options.cancelGraceMs ?? 3_000 };
  return {
    id: 'a1111',
    name: 'AUTOMATIC1111 / Forge',
    capabilities: (config) => capabilities(config),
    knownModels: (config) => (config.model === undefined || config.model === '' ? [] : [config.model]),
    // Without a model A1111 runs the checkpoint it has loaded, so none is ever required.
    listsModels: true,
    // The base URL defaults to http://127.0.0.1:7860, so A1111 is always configured; `enabled` is a separate setting.
    isConfigured: (config) => {
      try {
        credentials(config);
        return true;
      } catch {
        return false;
      }
    },
    validate,
    generate: (request, config, context) => generate(request, config, context, run),
    test: (config, signal) => testConnection(config, signal),
  };
}
