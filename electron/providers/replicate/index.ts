export { createReplicateProvider } from './provider.js';
export { REPLICATE_BASE_URL } from './connection.js';
export { DEFAULT_REPLICATE_MODEL, REPLICATE_MODELS, replicateCapabilities } from './models.js';
