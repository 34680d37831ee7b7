import type { ChannelRequest } from '../../../shared/contract';
import type { SliceCreator } from './deps';
import type { AnnotationsSlice } from './types';

/**
 * Corrections and notes go straight to the engine: what it saved comes back as jobs.changed (the card's prompt) and a
 * new updatedAt, on which the viewer reads the job's details again (both values, the note).
 */
export const createAnnotationsSlice: SliceCreator<AnnotationsSlice> =
  ({ api }) =>
  (_set, get) => {
    const attempt = async (call: () => Promise<unknown>): Promise<boolean> => {
      try {
        await call();
        return true;
      } catch (error) {
        get().reportError(error);
        return false;
      }
    };
    return {
      correctSettings: (jobId, set) =>
        attempt(() => api.call('jobs.correct', { jobId, set: set as ChannelRequest<'jobs.correct'>['set'] })),
      revertCorrections: (jobId, fields) =>
        attempt(() => api.call('jobs.revertCorrections', { jobId, ...(fields === undefined ? {} : { fields }) })),
      saveNote: (imageId, text) => attempt(() => api.call('images.setNote', { imageId, text })),
    };
  };
