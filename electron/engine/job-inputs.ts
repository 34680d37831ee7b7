import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { AppError } from '../../shared/errors.js';
import { operationOf, type GenerateRequest } from '../../shared/contract.js';
import type { JobStore } from '../db/types.js';
import { absolute } from '../media/media-paths.js';
import type { SourceImage, WorkInputs } from '../providers/types.js';

type InputRequest = Pick<GenerateRequest, 'inputImage' | 'mask' | 'upscale' | 'variationOf' | 'count'>;

export interface JobInputs {
  /** Before a job is stored: the source image and mask exist and belong together (clear errors, nothing sent). */
  check(request: InputRequest): void;
  /** When the job runs: the source's bytes (an imported original is only read) and the mask's; undefined from text. */
  read(request: InputRequest): Promise<WorkInputs | undefined>;
}

const gone = (message: string, field: string): AppError =>
  new AppError('invalid_request', message, { details: { fields: { [field]: message } } });

/** Resolves the images a request works from, in the library's own files or where an imported original lives. */
export function createJobInputs(dataDir: string, store: Pick<JobStore, 'image' | 'masks' | 'imports'>): JobInputs {
  const sourceOf = (request: InputRequest): { imageId: string; field: string } | undefined => {
    if (request.upscale !== undefined) return { imageId: request.upscale.imageId, field: 'upscale' };
    if (request.inputImage !== undefined) return { imageId: request.inputImage.imageId, field: 'inputImage' };
    return undefined;
  };

  const check = (request: InputRequest): void => {
    const op = operationOf(request);
    if ('error' in op) throw gone(op.error, op.field);
    if (request.variationOf !== undefined && store.image(request.variationOf.imageId) === null) {
      throw gone('That image is no longer in the library, so there is nothing to vary.', 'variationOf');
    }
    const source = sourceOf(request);
    if (source === undefined) return;
    const image = store.image(source.imageId);
    if (image === null) throw gone('That image is no longer in the library: choose another one to work from.', source.field);
    if (request.mask !== undefined) {
      const mask = store.masks.get(request.mask.imageId);
      if (mask === null) throw gone('That mask is not one Atelier saved: paint it again.', 'mask');
      if (mask.imageId !== source.imageId) throw gone('That mask was painted over a different image.', 'mask');
    }
  };

  const readSource = async (imageId: string, field: string): Promise<SourceImage> => {
    const image = store.image(imageId);
    if (image === null) throw gone('The image this job works from is no longer in the library.', field);
    const path = image.linked ? store.imports.original(imageId)?.path : absolute(dataDir, image.path);
    if (path === undefined) throw gone('The original of this imported image is not where it was: reconnect its folder.', field);
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch {
      throw new AppError('not_found', `The image this job works from cannot be read (${image.linked ? 'its original is gone or its drive is not connected' : 'its file is missing'}).`, { details: { field } });
    }
    // An imported original is never ours to change, but it may have been edited since: say so rather than send other pixels.
    if (createHash('sha256').update(bytes).digest('hex') !== image.sha256) {
      throw new AppError('conflict', 'The image file has changed since Atelier stored it: import it again to work from the new version.', { details: { field } });
    }
    return { data: new Uint8Array(bytes), mime: image.mime, width: image.width, height: image.height };
  };

  const readMask = async (maskId: string, size: { width: number; height: number }): Promise<SourceImage> => {
    const mask = store.masks.get(maskId);
    if (mask === null) throw gone('That mask is not one Atelier saved: paint it again.', 'mask');
    const bytes = await readFile(absolute(dataDir, mask.path)).catch(() => {
      throw new AppError('not_found', 'The mask file is missing: paint the mask again.', { details: { field: 'mask' } });
    });
    // A mask is kept at its source's size; a source re-imported at another size would misplace it.
    const meta = await sharp(bytes).metadata();
    if (meta.width !== size.width || meta.height !== size.height) throw gone('The mask is not the size of its image: paint it again.', 'mask');
    return { data: new Uint8Array(bytes), mime: 'image/png', width: mask.width, height: mask.height };
  };

  return {
    check,
    async read(request) {
      const source = sourceOf(request);
      if (source === undefined) return undefined;
      const image = await readSource(source.imageId, source.field);
      if (request.mask === undefined) return { image };
      return { image, mask: await readMask(request.mask.imageId, image) };
    },
  };
}
