import type { EventName, Events } from '../../shared/contract.js';
import type { Logger } from './logger.js';

/** What a subscription returns: call it once to stop listening. */
export type Unsubscribe = () => void;

/** Listening to the engine's events (shared/contract.ts names them), as hosts and services do. */
export interface EngineEvents {
  on<E extends EventName>(name: E, listener: (payload: Events[E]) => void): Unsubscribe;
}

export interface EventBus extends EngineEvents {
  emit<E extends EventName>(name: E, payload: Events[E]): void;
}

/** A typed emitter; a throwing listener is logged and never breaks the others or the engine. */
export function createEventBus(log?: Logger): EventBus {
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  return {
    on(name, listener) {
      let set = listeners.get(name);
      if (set === undefined) {
        set = new Set();
        listeners.set(name, set);
      }
      set.add(listener as (payload: never) => void);
      return () => {
        set.delete(listener as (payload: never) => void);
      };
    },
    emit(name, payload) {
      const set = listeners.get(name);
      if (set === undefined) return;
      for (const listener of [...set]) {
        try {
          (listener as (p: typeof payload) => void)(payload);
        } catch (error) {
          log?.error('event listener failed', { event: name, error: String(error) });
        }
      }
    },
  };
}

/** One kind of notice from a service to whoever subscribes after it exists: how two services that need each
 * other are wired without either using the other before it is declared. */
export interface Signal<A extends unknown[]> {
  emit(...args: A): void;
  on(listener: (...args: A) => void): Unsubscribe;
}

export function createSignal<A extends unknown[]>(): Signal<A> {
  const listeners = new Set<(...args: A) => void>();
  return {
    emit(...args) {
      for (const listener of [...listeners]) listener(...args);
    },
    on(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
