import { parseBaseUrl } from '../http/url.js';
import type { Provider } from '../types.js';
import { PROVIDER, REPLICATE_BASE_URL, hasKey, modelFor } from './connection.js';
import { generate } from './generate.js';
import { REPLICATE_MODELS, replicateCapabilities, validateReplicateRequest } from './models.js';
import { DEFAULT_POLL_TIMING, type PollTiming } from './poll.js';
import { resume } from './resume.js';
import { testConnection } from './test-connection.js';

/**
 * Replicate predictions (docs/hosted-protocols.md §1.4): create with `Prefer: wait`, poll, cancel, download the
 * outputs; the job's hooks are in generate.ts. `timing` is the poll back-off and the create call's hold.
 */
export function createReplicateProvider(timing: PollTiming = DEFAULT_POLL_TIMING): Provider {
  return {
    id: 'replicate',
    name: 'Replicate',
    capabilities: (config) => replicateCapabilities(modelFor(undefined, config)),
    knownModels: (config) => {
      const extra =
        config.model !== undefined && !(REPLICATE_MODELS as readonly string[]).includes(config.model)
          ? [config.model]
          : [];
      return [...REPLICATE_MODELS, ...extra];
    },
    isConfigured: (config) => hasKey(config),
    validate(request, config) {
      parseBaseUrl(config.baseUrl, REPLICATE_BASE_URL, PROVIDER);
      validateReplicateRequest(request, modelFor(request, config));
    },
    generate: (request, config, context) => generate(request, config, context, timing),
    test: (config, signal) => testConnection(config, signal),
    resume: (remote, request, config, context) => resume(remote, request, config, context, timing),
  };
}
