export { createRunPodProvider } from './provider.js';
export { RUNPOD_BASE_URL_EXAMPLE } from './connection.js';
export { runpodCapabilities } from './capabilities.js';
