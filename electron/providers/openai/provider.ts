import { parseBaseUrl } from '../http/url.js';
import type { Provider } from '../types.js';
import { OPENAI_BASE_URL, PROVIDER, modelFor } from './connection.js';
import { generate } from './generate.js';
import { OPENAI_MODELS, openAICapabilities, validateOpenAIRequest } from './models.js';
import { testConnection } from './test-connection.js';

export { OPENAI_BASE_URL, openAIUrl } from './connection.js';

/**
 * OpenAI Images (and OpenAI-compatible servers): POST /v1/images/generations, streamed over SSE when partial
 * previews are asked for; the job's hooks are in generate.ts. There is no cancel endpoint: cancelling aborts the
 * connection (OpenAI may still bill).
 */
export function createOpenAIProvider(): Provider {
  return {
    id: 'openai',
    name: 'OpenAI',
    capabilities: (config) => openAICapabilities(modelFor(undefined, config)),
    knownModels: (config) => {
      const extra =
        config.model !== undefined && !(OPENAI_MODELS as readonly string[]).includes(config.model)
          ? [config.model]
          : [];
      return [...OPENAI_MODELS, ...extra];
    },
    // A custom base URL (LocalAI, a relay) may need no key; api.openai.com always does.
    isConfigured: (config) => {
      if (config.apiKey !== undefined && config.apiKey !== '') return true;
      if (config.baseUrl === undefined || config.baseUrl.trim() === '') return false;
      try {
        return new URL(config.baseUrl).hostname !== 'api.openai.com';
      } catch {
        return false;
      }
    },
    validate(request, config) {
      parseBaseUrl(config.baseUrl, OPENAI_BASE_URL, PROVIDER);
      validateOpenAIRequest(request, modelFor(request, config));
    },
    generate: (request, config, context) => generate(request, config, context),
    test: (config, signal) => testConnection(config, signal),
  };
}
