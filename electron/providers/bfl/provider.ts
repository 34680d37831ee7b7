import { parseBaseUrl } from '../http/url.js';
import type { Provider } from '../types.js';
import { BFL_BASE_URL, PROVIDER, hasKey, modelFor } from './connection.js';
import { generate } from './generate.js';
import { BFL_MODELS, bflCapabilities, validateBflRequest } from './models.js';
import { DEFAULT_POLL_TIMING, type PollTiming } from './poll.js';
import { resume } from './resume.js';
import { testConnection } from './test-connection.js';

/**
 * Black Forest Labs FLUX API (FLUX.2): submit, poll the returned polling_url, download the signed sample
 * (docs/hosted-protocols.md §1.2); the job's hooks are in generate.ts. `timing` is the poll back-off.
 */
export function createBflProvider(timing: PollTiming = DEFAULT_POLL_TIMING): Provider {
  return {
    id: 'bfl',
    name: 'Black Forest Labs FLUX',
    capabilities: (config) => bflCapabilities(modelFor(undefined, config)),
    knownModels: (config) => {
      const extra =
        config.model !== undefined && !(BFL_MODELS as readonly string[]).includes(config.model) ? [config.model] : [];
      return [...BFL_MODELS, ...extra];
    },
    isConfigured: (config) => hasKey(config),
    validate(request, config) {
      parseBaseUrl(config.baseUrl, BFL_BASE_URL, PROVIDER);
      validateBflRequest(request, modelFor(request, config));
    },
    generate: (request, config, context) => generate(request, config, context, timing),
    test: (config, signal) => testConnection(config, signal),
    resume: (remote, request, config, context) => resume(remote, request, config, context, timing),
  };
}
