import { parseBaseUrl } from '../http/url.js';
import type { Provider } from '../types.js';
import { PROVIDER, STABILITY_BASE_URL, hasKey, modelFor } from './connection.js';
import { generate } from './generate.js';
import { STABILITY_MODELS, stabilityCapabilities } from './models.js';
import { DEFAULT_POLL_TIMING, type PollTiming } from './poll.js';
import { resume } from './resume.js';
import { testConnection } from './test-connection.js';
import { validateStabilityRequest } from './validate.js';

/**
 * Stability AI REST v2 (docs/hosted-protocols.md §1.5): multipart POSTs to generate/{ultra,core,sd3}, edit/inpaint,
 * edit/erase and upscale/{fast,conservative,creative}; the job's hooks are in generate.ts. `timing` is the back-off
 * for polling /v2beta/results/{id}.
 */
export function createStabilityProvider(timing: PollTiming = DEFAULT_POLL_TIMING): Provider {
  return {
    id: 'stability',
    name: 'Stability AI',
    capabilities: (config) => stabilityCapabilities(modelFor(undefined, config)),
    knownModels: (config) => {
      const extra =
        config.model !== undefined && !(STABILITY_MODELS as readonly string[]).includes(config.model)
          ? [config.model]
          : [];
      return [...STABILITY_MODELS, ...extra];
    },
    isConfigured: (config) => hasKey(config),
    validate(request, config) {
      parseBaseUrl(config.baseUrl, STABILITY_BASE_URL, PROVIDER);
      validateStabilityRequest(request, modelFor(request, config));
    },
    generate: (request, config, context) => generate(request, config, context, timing),
    test: (config, signal) => testConnection(config, signal),
    resume: (remote, request, config, context) => resume(remote, request, config, context, timing),
  };
}
