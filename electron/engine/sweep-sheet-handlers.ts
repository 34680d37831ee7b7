import type { Handlers } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';

// Placeholder while the labelled sheet is built: answers with a clear error.
export function createSweepSheetHandlers(): Pick<Handlers, 'sweeps.sheet'> {
  return {
    'sweeps.sheet': async () => {
      throw new AppError('internal', 'A sweep sheet is not built yet.');
    },
  };
}
