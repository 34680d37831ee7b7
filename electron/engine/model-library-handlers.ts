import type { Handlers } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';

export type ModelLibraryChannels = 'models.library' | 'models.setNote' | 'models.refresh';

// Placeholder while the model library is built: every channel answers with a clear error.
export function createModelLibraryHandlers(): Pick<Handlers, ModelLibraryChannels> {
  const unbuilt = async (): Promise<never> => {
    throw new AppError('internal', 'The model library is not built yet.');
  };
  return { 'models.library': unbuilt, 'models.setNote': unbuilt, 'models.refresh': unbuilt };
}
