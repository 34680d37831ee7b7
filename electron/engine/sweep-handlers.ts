import type { Handlers } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';

export type SweepChannels = 'sweeps.start' | 'sweeps.list' | 'sweeps.get' | 'sweeps.rerun';

// Placeholder while sweeps are built: every channel answers with a clear error.
export function createSweepHandlers(): Pick<Handlers, SweepChannels> {
  const unbuilt = async (): Promise<never> => {
    throw new AppError('internal', 'Sweeps are not built yet.');
  };
  return {
    'sweeps.start': unbuilt,
    'sweeps.list': unbuilt,
    'sweeps.get': unbuilt,
    'sweeps.rerun': unbuilt,
  };
}
