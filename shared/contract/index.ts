/**
 * The one contract between the engine, both hosts (Electron IPC and the headless HTTP host) and the renderer,
 * split by domain. Channel and event names are public: outside clients depend on them, so rename nothing.
 */
export * from './common.js';
export * from './jobs.js';
export * from './providers.js';
export * from './settings.js';
export * from './library.js';
export * from './imports.js';
export * from './curation.js';
export * from './corrections.js';
export * from './search.js';
export * from './similar.js';
export * from './iterate.js';
export * from './export.js';
export * from './desktop.js';
export * from './updates.js';
export * from './library-location.js';
export * from './spend.js';
export * from './discovery.js';
export * from './queue.js';
export * from './loras.js';
export * from './sweeps.js';
export * from './models.js';
export * from './channels.js';
export * from './events.js';
