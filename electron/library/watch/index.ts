export { createFolderWatcher } from './folder-watcher.js';
export { isIgnoredName, isIgnoredPath } from './ignore.js';
export type { FolderWatcher, FolderWatcherOptions, WatchBatch, WatchLog, WatchStatus } from './types.js';
