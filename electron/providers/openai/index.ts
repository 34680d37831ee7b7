export { createOpenAIProvider, openAIUrl, OPENAI_BASE_URL } from './provider.js';
export { OPENAI_MODELS, DEFAULT_OPENAI_MODEL, familyOf, openAICapabilities } from './models.js';
