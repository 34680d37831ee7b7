import { AppError } from '../../shared/errors.js';
import { ANY_PREFIX, type Handlers } from '../../shared/contract.js';
import type { JobStore } from '../db/types.js';
import type { ProviderRegistry } from './provider-registry.js';

/** Several servers of one kind: adding and removing instances. */
export function createInstanceHandlers(deps: {
  providers: ProviderRegistry;
  store: Pick<JobStore, 'moveQueued'>;
  announce: (ids: string[]) => void;
  kick: () => void;
}): Pick<Handlers, 'providers.add' | 'providers.remove'> {
  const { providers } = deps;
  return {
    'providers.add': async (input) => {
      const added = await providers.add(input);
      deps.kick();
      return { provider: await providers.info(added.id) };
    },
    'providers.remove': async ({ id }) => {
      const found = providers.instances().find((i) => i.id === id);
      if (found === undefined)
        throw new AppError('not_found', `There is no server called “${id}”.`, { details: { id } });
      if (!found.added) {
        throw new AppError(
          'invalid_request',
          `${found.name} is the first ${found.kind} server and stays: turn it off in Settings instead.`,
          {
            details: { fields: { id: 'The first instance of a kind cannot be removed.' } },
          },
        );
      }
      // Moved and removed with no await between: the worker cannot place a job on it in the meantime.
      const moved = deps.store.moveQueued(
        id,
        `${ANY_PREFIX}${found.kind}`,
        `${found.name} was removed: any ${found.kind} server runs this job now.`,
      );
      await providers.remove(id);
      deps.announce(moved);
      deps.kick();
      return { removed: true, movedJobs: moved.length };
    },
  };
}
