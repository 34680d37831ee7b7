import {
  QUEUE_VIEW_LIMIT,
  type Handlers,
  type QueueControlState,
  type QueueProviderState,
} from '../../shared/contract.js';
import type { JobStore } from '../db/types.js';
import type { QueueControl } from '../scheduler/queue-control.js';

export interface QueueHandlerDeps {
  store: Pick<JobStore, 'queue'>;
  control: QueueControl;
  /** Every provider instance, with its concurrency and per-minute limit as set. */
  instances(): Array<{ id: string; concurrency: number; perMinute?: number | undefined }>;
  kick(): void;
  announce(ids: string[]): void;
  /** Sends the queue's state to every window (the `queue.control` event). */
  broadcast(state: QueueControlState): void;
}

type QueueChannels = 'queue.view' | 'queue.reorder' | 'queue.pause' | 'queue.resume' | 'queue.cancelQueued';

/** The queue's state as windows show it: paused or not, and per provider what runs, waits and holds it. */
export function queueControlState(deps: Omit<QueueHandlerDeps, 'kick' | 'announce' | 'broadcast'>): QueueControlState {
  const view = deps.store.queue.queueView(0);
  const runningBy = new Map<string, number>();
  for (const job of view.running) {
    const at = job.instance ?? job.provider;
    runningBy.set(at, (runningBy.get(at) ?? 0) + 1);
  }
  const providers = deps.instances().map(({ id, concurrency, perMinute }) => {
    const state: QueueProviderState = {
      id,
      running: runningBy.get(id) ?? 0,
      queued: deps.store.queue.queuedCount(id),
      limit: concurrency,
    };
    if (perMinute !== undefined) state.perMinute = perMinute;
    const hold = deps.control.hold(id);
    if (hold !== undefined) state.hold = hold;
    return state;
  });
  return { paused: deps.control.paused(), providers };
}

/** Queue control: its view and order, pausing it (whole or per provider), and cancelling what waits, counted. */
export function createQueueHandlers(deps: QueueHandlerDeps): Pick<Handlers, QueueChannels> {
  const changed = (): QueueControlState => {
    const state = queueControlState(deps);
    deps.broadcast(state);
    deps.kick();
    return state;
  };
  return {
    'queue.view': async () => {
      const { running, queued, queuedTotal } = deps.store.queue.queueView(QUEUE_VIEW_LIMIT);
      return { running, queued, queuedTotal, control: queueControlState(deps) };
    },
    'queue.reorder': async ({ ids, before }) => {
      const moved = deps.store.queue.reorder(ids, before);
      if (moved > 0) deps.announce(ids);
      return { moved };
    },
    'queue.pause': async ({ provider }) => {
      deps.control.pause(provider);
      return changed();
    },
    'queue.resume': async ({ provider }) => {
      deps.control.resume(provider);
      return changed();
    },
    'queue.cancelQueued': async ({ expected, provider }) => {
      const ids = deps.store.queue.cancelQueued(expected, provider);
      deps.announce(ids);
      return { cancelled: ids.length };
    },
  };
}
