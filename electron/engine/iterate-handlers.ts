import { AppError } from '../../shared/errors.js';
import { uuidv7 } from '../../shared/ids.js';
import type { Handlers } from '../../shared/contract.js';
import type { JobStore } from '../db/types.js';
import { saveMask } from '../media/save-mask.js';

/** Working from an image: masks painted in the viewer, kept as Atelier's own files for the job that uses them. */
export function createIterateHandlers(deps: {
  store: Pick<JobStore, 'image' | 'masks'>;
  dataDir: string;
  now: () => number;
}): Pick<Handlers, 'images.saveMask'> {
  return {
    'images.saveMask': async ({ imageId, png }) => {
      const image = deps.store.image(imageId);
      if (image === null)
        throw new AppError('not_found', 'That image is no longer in the library.', { details: { imageId } });
      const now = deps.now();
      const maskId = uuidv7(now);
      const saved = await saveMask({
        dataDir: deps.dataDir,
        maskId,
        base64: png,
        width: image.width,
        height: image.height,
      });
      deps.store.masks.insert({
        id: maskId,
        imageId,
        path: saved.path,
        width: image.width,
        height: image.height,
        bytes: saved.bytes,
        createdAt: now,
      });
      return { maskId, width: image.width, height: image.height, coverage: saved.coverage };
    },
  };
}
