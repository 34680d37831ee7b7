export { createBuiltinProvider, previewSizes, type BuiltinProvider, type BuiltinProviderOptions } from './provider.js';
export { BUILTIN_CAPABILITIES, BUILTIN_MODEL, validateBuiltinRequest } from './capabilities.js';
export { buildScene, type Scene } from './scene.js';
