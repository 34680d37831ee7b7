import { AppError } from '../../shared/errors.js';
import type { Handlers } from '../../shared/contract.js';

/** Several servers of one kind: adding and removing instances. */
export function createInstanceHandlers(): Pick<Handlers, 'providers.add' | 'providers.remove'> {
  const later = async (): Promise<never> => {
    throw new AppError('internal', 'Several instances of a provider are not available yet.');
  };
  return { 'providers.add': later, 'providers.remove': later };
}
