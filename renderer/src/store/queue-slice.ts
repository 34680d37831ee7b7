import { AppError } from '../../../shared/errors';
import { moveInOrder } from '../queue/queue-order';
import type { SliceCreator } from './deps';
import type { QueueSlice } from './types';

/** A burst of job events (a batch starting, a queue cancelled) asks for the queue once. */
export const QUEUE_REFRESH_MS = 250;

/** The queue as the engine orders it (queue.view is the truth), moved optimistically, paused and cancelled from here. */
export const createQueueSlice: SliceCreator<QueueSlice> = ({ api }) => {
  // Each fetch and each move takes a number: an answer older than the newest move is dropped, so a reorder shown at
  // once is never undone by a view that left before it.
  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  return (set, get) => {
    const setPaused = async (paused: boolean, provider: string | undefined): Promise<void> => {
      const target = provider === undefined ? {} : { provider };
      try {
        const control = await api.call(paused ? 'queue.pause' : 'queue.resume', target);
        get().applyQueueControl(control);
      } catch (error) {
        get().reportError(error);
      }
    };
    return {
      queue: null,
      queueOpen: false,
      setQueueOpen: (queueOpen) => {
        set({ queueOpen });
        if (queueOpen) void get().loadQueue();
      },

      async loadQueue() {
        const mine = ++seq;
        try {
          const queue = await api.call('queue.view', {});
          if (mine === seq) set({ queue });
        } catch (error) {
          if (get().queueOpen) get().reportError(error);
        }
      },

      loadQueueSoon() {
        if (get().queue === null && !get().queueOpen) return;
        if (timer !== null) return;
        timer = setTimeout(() => {
          timer = null;
          void get().loadQueue();
        }, QUEUE_REFRESH_MS);
      },

      applyQueueControl(control) {
        const { queue } = get();
        if (queue !== null) set({ queue: { ...queue, control } });
        get().loadQueueSoon();
      },

      async reorderQueue(ids, before) {
        const { queue } = get();
        seq += 1;
        if (queue !== null) set({ queue: { ...queue, queued: moveInOrder(queue.queued, ids, before) } });
        try {
          await api.call('queue.reorder', { ids: [...ids], before });
        } catch (error) {
          get().reportError(error);
        }
        await get().loadQueue();
      },

      async pauseQueue(provider) {
        await setPaused(true, provider);
      },

      async resumeQueue(provider) {
        await setPaused(false, provider);
      },

      async cancelQueued(expected, provider) {
        try {
          const { cancelled } = await api.call('queue.cancelQueued', {
            expected,
            ...(provider === undefined ? {} : { provider }),
          });
          await get().loadQueue();
          return { cancelled };
        } catch (error) {
          const actual = error instanceof AppError && error.code === 'conflict' ? error.details?.actual : undefined;
          if (typeof actual === 'number') {
            await get().loadQueue();
            return { actual };
          }
          get().reportError(error);
          return null;
        }
      },
    };
  };
};
