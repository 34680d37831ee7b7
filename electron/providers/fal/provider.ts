import { parseBaseUrl } from '../http/url.js';
import type { Provider } from '../types.js';
import { FAL_QUEUE_URL, PROVIDER, hasKey, modelFor } from './connection.js';
import { generate } from './generate.js';
import { FAL_MODELS, falCapabilities, validateFalRequest } from './models.js';
import { DEFAULT_POLL_TIMING, type PollTiming } from './poll.js';
import { resume } from './resume.js';
import { testConnection } from './test-connection.js';

/**
 * fal.ai's durable queue (docs/hosted-protocols.md §1.3): any model id, submit, poll status with queue position and
 * runner logs, fetch the result and download its images, cancel through cancel_url; the job's hooks are in
 * generate.ts. `timing` is the status poll's back-off.
 */
export function createFalProvider(timing: PollTiming = DEFAULT_POLL_TIMING): Provider {
  return {
    id: 'fal',
    name: 'fal.ai',
    capabilities: (config) => falCapabilities(modelFor(undefined, config)),
    knownModels: (config) => {
      const typed = config.model === undefined ? undefined : modelFor(undefined, config);
      const extra = typed !== undefined && !(FAL_MODELS as readonly string[]).includes(typed) ? [typed] : [];
      return [...FAL_MODELS, ...extra];
    },
    isConfigured: (config) => hasKey(config),
    validate(request, config) {
      parseBaseUrl(config.baseUrl, FAL_QUEUE_URL, PROVIDER);
      validateFalRequest(request, modelFor(request, config));
    },
    generate: (request, config, context) => generate(request, config, context, timing),
    test: (config, signal) => testConnection(config, signal),
    resume: (remote, request, config, context) => resume(remote, request, config, context, timing),
  };
}
