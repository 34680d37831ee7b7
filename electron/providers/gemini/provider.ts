import { parseBaseUrl } from '../http/url.js';
import type { Provider } from '../types.js';
import { GEMINI_BASE_URL, PROVIDER, hasKey, modelFor } from './connection.js';
import { generate } from './generate.js';
import { GEMINI_MODELS, geminiCapabilities, validateGeminiRequest } from './models.js';
import { testConnection } from './test-connection.js';

/**
 * Google Gemini image ("Nano Banana"): POST /v1beta/models/{model}:generateContent, one synchronous answer
 * (docs/hosted-protocols.md §1.1); the job's hooks are in generate.ts. Cancelling drops the connection (Google may
 * still bill).
 */
export function createGeminiProvider(): Provider {
  return {
    id: 'gemini',
    name: 'Google Gemini',
    capabilities: (config) => geminiCapabilities(modelFor(undefined, config)),
    knownModels: (config) => {
      const extra =
        config.model !== undefined && !(GEMINI_MODELS as readonly string[]).includes(config.model)
          ? [config.model]
          : [];
      return [...GEMINI_MODELS, ...extra];
    },
    // Google always needs a key, even behind a relay base URL.
    isConfigured: (config) => hasKey(config),
    validate(request, config) {
      parseBaseUrl(config.baseUrl, GEMINI_BASE_URL, PROVIDER);
      validateGeminiRequest(request, modelFor(request, config));
    },
    generate: (request, config, context) => generate(request, config, context),
    test: (config, signal) => testConnection(config, signal),
  };
}
