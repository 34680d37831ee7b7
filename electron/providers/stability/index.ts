export { createStabilityProvider } from './provider.js';
export { STABILITY_BASE_URL } from './connection.js';
export { DEFAULT_STABILITY_MODEL, STABILITY_MODELS, stabilityCapabilities } from './models.js';
