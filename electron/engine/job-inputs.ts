import sharp from 'sharp';
import { AppError } from '../../shared/errors.js';
import { operationOf, type GenerateRequest } from '../../shared/contract.js';
import type { JobStore } from '../db/types.js';
import { resolveInsideDataDir } from '../base/paths.js';
import { RefusedRead } from '../library/originals/guarded-open.js';
import { imageSourceOf } from '../library/originals/image-source.js';
import type { OriginalReader } from '../library/originals/original-reader.js';
import type { SourceImage, WorkInputs } from '../providers/types.js';

type InputRequest = Pick<
  GenerateRequest,
  'inputImage' | 'mask' | 'upscale' | 'variationOf' | 'count' | 'referenceImages'
>;

export interface JobInputs {
  /** Before a job is stored: the source image and mask exist and belong together (clear errors, nothing sent). */
  check(request: InputRequest): void;
  /** When the job runs: the source's bytes (an imported original is only read) and the mask's; undefined from text. */
  read(request: InputRequest): Promise<WorkInputs | undefined>;
}

const gone = (message: string, field: string): AppError =>
  new AppError('invalid_request', message, { details: { fields: { [field]: message } } });

/** Resolves the images a request works from, in the library's own files or where an imported original lives. */
/** A mask is a one-channel PNG of its image's size: far below this even at the largest size a provider takes. */
const MAX_MASK_BYTES = 64 * 1024 * 1024;

export function createJobInputs(
  dataDir: string,
  store: Pick<JobStore, 'image' | 'masks' | 'imports'>,
  reader: Pick<OriginalReader, 'read'>,
): JobInputs {
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
    for (const reference of request.referenceImages ?? []) {
      if (store.image(reference.imageId) === null)
        throw gone('A reference image is no longer in the library: remove it from the references.', 'referenceImages');
    }
    const source = sourceOf(request);
    if (source === undefined) return;
    const image = store.image(source.imageId);
    if (image === null)
      throw gone('That image is no longer in the library: choose another one to work from.', source.field);
    if (request.mask !== undefined) {
      const mask = store.masks.get(request.mask.imageId);
      if (mask === null) throw gone('That mask is not one Atelier saved: paint it again.', 'mask');
      if (mask.imageId !== source.imageId) throw gone('That mask was painted over a different image.', 'mask');
    }
  };

  const readSource = async (imageId: string, field: string): Promise<SourceImage> => {
    if (store.image(imageId) === null) throw gone('The image this job works from is no longer in the library.', field);
    const source = imageSourceOf(dataDir, store, imageId);
    if (source === null)
      throw gone('The original of this imported image is not where it was: reconnect its folder.', field);
    try {
      // The guarded read checks the recorded hash: an original edited since is never sent as if it were the same.
      const file = await reader.read(source);
      return { data: file.bytes, mime: source.mime, width: source.width, height: source.height };
    } catch (error) {
      if (error instanceof RefusedRead && error.reason === 'changed')
        throw new AppError('conflict', error.message, { details: { field } });
      const why = error instanceof RefusedRead ? error.message : 'its file could not be read';
      throw new AppError(
        'not_found',
        `The image this job works from cannot be read (${source.linked ? 'its original' : 'its file'}): ${why}`,
        { details: { field } },
      );
    }
  };

  const readMask = async (maskId: string, size: { width: number; height: number }): Promise<SourceImage> => {
    const mask = store.masks.get(maskId);
    if (mask === null) throw gone('That mask is not one Atelier saved: paint it again.', 'mask');
    const path = resolveInsideDataDir(dataDir, mask.path);
    const missing = () =>
      new AppError('not_found', 'The mask file is missing: paint the mask again.', { details: { field: 'mask' } });
    if (path === null) throw missing();
    const { bytes } = await reader
      .read({ path, root: dataDir, rootMayBeLink: true, maxBytes: MAX_MASK_BYTES })
      .catch(() => {
        throw missing();
      });
    // A mask is kept at its source's size; a source re-imported at another size would misplace it.
    const meta = await sharp(bytes).metadata();
    if (meta.width !== size.width || meta.height !== size.height)
      throw gone('The mask is not the size of its image: paint it again.', 'mask');
    return { data: new Uint8Array(bytes), mime: 'image/png', width: mask.width, height: mask.height };
  };

  return {
    check,
    async read(request) {
      const inputs: WorkInputs = {};
      // One at a time: each is a guarded read of a whole original, bounded by the reader's memory budget.
      for (const reference of request.referenceImages ?? []) {
        (inputs.references ??= []).push(await readSource(reference.imageId, 'referenceImages'));
      }
      const source = sourceOf(request);
      if (source !== undefined) {
        inputs.image = await readSource(source.imageId, source.field);
        if (request.mask !== undefined) inputs.mask = await readMask(request.mask.imageId, inputs.image);
      }
      return inputs.image === undefined && inputs.references === undefined ? undefined : inputs;
    },
  };
}
