export { createGeminiProvider } from './provider.js';
export { GEMINI_BASE_URL } from './connection.js';
export { GEMINI_MODELS, DEFAULT_GEMINI_MODEL, geminiCapabilities } from './models.js';
