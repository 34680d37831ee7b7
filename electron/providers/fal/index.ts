export { createFalProvider } from './provider.js';
export { FAL_QUEUE_URL } from './connection.js';
export { DEFAULT_FAL_MODEL, FAL_MODELS, falCapabilities } from './models.js';
