import { createPreviewRegistry, storeProviderImage, type MediaFs, type PreviewRegistry } from '../media/index.js';
import type { JobMedia } from '../scheduler/types.js';

export const APP_VERSION = '0.1.0';

/** Binds electron/media to the worker's needs for one data dir. */
export function createJobMedia(dataDir: string, fs?: MediaFs): JobMedia & { previews: PreviewRegistry } {
  const previews = createPreviewRegistry(dataDir, fs === undefined ? {} : { fs });
  return {
    previews,
    storeImage: (input) =>
      storeProviderImage({
        dataDir,
        id: input.imageId,
        index: input.index,
        image: input.image,
        jobId: input.jobId,
        request: input.request,
        provider: input.request.provider,
        createdAt: input.createdAt,
        appVersion: APP_VERSION,
        ...(fs === undefined ? {} : { fs }),
        ...(input.request.model === undefined ? {} : { model: input.request.model }),
        ...(input.seed === undefined ? {} : { seed: input.seed }),
        ...(input.batchIndex === undefined ? {} : { batchIndex: input.batchIndex }),
      }),
    addPreview: (jobId, image) => previews.addPreview(jobId, image),
    clearPreviews: (jobId) => previews.clearJob(jobId),
  };
}
