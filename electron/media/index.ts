/** Image files: atomic content-addressed originals and thumbnails, partial previews, start-up orphan collection, PNG metadata. */
export { writeFileAtomic, ensureDir, type WriteOptions } from './atomic-write.js';
export { writeContentAddressed, sha256Hex, type StoredFile } from './content-store.js';
export { makeThumbnail, writeThumbnail, THUMB_LONG_EDGE } from './thumbnail.js';
export { storeProviderImage, type StoreImageInput } from './store-image.js';
export { createPreviewRegistry, type PreviewRegistry, type PreviewFile, type PreviewOptions } from './previews.js';
export {
  collectOrphans,
  removePreviewFolders,
  findMissingFiles,
  databaseLooksLost,
  shardedFiles,
  DEFAULT_ORPHAN_GRACE_MS,
  type OrphanCollection,
  type MissingFiles,
} from './orphan-collection.js';
export { countOrphans, removeOrphans, ORPHANS_DIR, type OrphanCount } from './orphans.js';
export { resolveMediaPath } from './safe-path.js';
export { toStorageError, STORAGE_ERRNOS } from './storage-error.js';
export { nodeMediaFs, type MediaFs, type MediaFileHandle, type MediaStat } from './media-fs.js';
export { LIBRARY_DIR, THUMBS_DIR, PREVIEWS_DIR, TMP_DIR } from './media-paths.js';
export { readPngMetadata, embedSettings, type ImageMetadata, type GenerationSettings } from './png/index.js';
