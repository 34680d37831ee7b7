export { createBflProvider } from './provider.js';
export { BFL_BASE_URL } from './connection.js';
export { BFL_MODELS, DEFAULT_BFL_MODEL, bflCapabilities } from './models.js';
