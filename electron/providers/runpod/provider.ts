import { customGraph } from '../comfyui/capabilities.js';
import { checkPlaceholders, defaultWorkflow } from '../comfyui/workflow.js';
import type { Provider } from '../types.js';
import { runpodCapabilities } from './capabilities.js';
import { endpointOf, hasKey } from './connection.js';
import { generate } from './generate.js';
import { planGraph } from './graph.js';
import { DEFAULT_POLL_TIMING, type PollTiming } from './poll.js';
import { resume } from './resume.js';
import { testConnection } from './test-connection.js';

/**
 * RunPod serverless with worker-comfyui ("a rented GPU", docs/hosted-protocols.md §2.2): Atelier's ComfyUI graphs
 * sent to /run, polled on /status, cancelled on /cancel; the job's hooks are in generate.ts. `timing` is the poll
 * back-off.
 */
export function createRunPodProvider(timing: PollTiming = DEFAULT_POLL_TIMING): Provider {
  return {
    id: 'runpod',
    name: 'RunPod (ComfyUI)',
    capabilities: (config) => runpodCapabilities(config),
    knownModels: (config) => (config.model === undefined || config.model === '' ? [] : [config.model]),
    requiresModel: (config) => {
      try {
        return checkPlaceholders(customGraph(config) ?? defaultWorkflow()).has('model');
      } catch {
        // A broken workflow is refused by validate() with its own message.
        return false;
      }
    },
    isConfigured: (config) => {
      try {
        endpointOf(config);
        return hasKey(config);
      } catch {
        return false;
      }
    },
    validate(request, config) {
      endpointOf(config);
      planGraph(request, config, request.seed ?? 0);
    },
    generate: (request, config, context) => generate(request, config, context, timing),
    test: (config, signal) => testConnection(config, signal),
    resume: (remote, request, config, context) => resume(remote, request, config, context, timing),
  };
}
