import { AppError } from '../../shared/errors.js';
import type { Handlers } from '../../shared/contract.js';

/** Working from an image: masks painted in the viewer. */
export function createIterateHandlers(): Pick<Handlers, 'images.saveMask'> {
  return {
    'images.saveMask': async () => {
      throw new AppError('internal', 'Masks are not available yet.');
    },
  };
}
