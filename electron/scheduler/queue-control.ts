import type { QueueHold } from '../../shared/contract.js';
import type { Clock } from '../base/clock.js';

/** What the person paused, kept in the store's settings table so a restart shows the same queue. */
export interface PausedState {
  paused: boolean;
  providers: string[];
}

export interface QueueControlDeps {
  clock: Clock;
  load(): PausedState | null;
  save(state: PausedState): void;
  /** Jobs per minute a provider may start, when the person set one. */
  perMinute(instance: string): number | undefined;
  /** The spend cap's message while it holds the instance (electron/spend/spend-gate.ts pausedByCap). */
  capHold?(instance: string): string | null;
  /** Called whenever a hold starts or ends, or a pause changes (the engine announces the queue's state). */
  onChange(): void;
  /** A timer for holds that lift by themselves; injectable for tests. */
  setTimer?(fn: () => void, ms: number): { cancel(): void };
}

export interface QueueControl {
  paused(): boolean;
  pausedProviders(): string[];
  pause(instance?: string): void;
  resume(instance?: string): void;
  /** Why an instance takes no new work now, or undefined. */
  hold(instance: string): QueueHold | undefined;
  /** The provider asked to wait (a 429 with or without Retry-After): no job starts there until then. */
  backOff(instance: string, ms: number, message: string): void;
  /** A job starts on the instance: counted against its per-minute limit. */
  started(instance: string): void;
  close(): void;
}

const MINUTE = 60_000;

/**
 * Pauses (the person's, kept across restarts), back-offs (the provider's, lifting by themselves) and per-minute
 * limits per instance. The scheduler asks `hold` before placing new work; work a provider already accepted is
 * collected whatever holds (nothing new is sent).
 */
export function createQueueControl(deps: QueueControlDeps): QueueControl {
  const stored = safeLoad(deps);
  let paused = stored.paused;
  const pausedSet = new Set(stored.providers);
  const backoffs = new Map<string, { until: number; message: string }>();
  /** Start times within the last minute, per instance. */
  const starts = new Map<string, number[]>();
  const timers = new Set<{ cancel(): void }>();
  const setTimer =
    deps.setTimer ??
    ((fn: () => void, ms: number) => {
      const t = setTimeout(fn, ms);
      t.unref?.();
      return { cancel: () => clearTimeout(t) };
    });
  const wakeAt = (at: number): void => {
    const timer = setTimer(
      () => {
        timers.delete(timer);
        deps.onChange();
      },
      Math.max(1, at - deps.clock.now()),
    );
    timers.add(timer);
  };
  const persist = (): void => {
    deps.save({ paused, providers: [...pausedSet] });
    deps.onChange();
  };
  const recent = (instance: string, now: number): number[] => {
    const kept = (starts.get(instance) ?? []).filter((t) => now - t < MINUTE);
    starts.set(instance, kept);
    return kept;
  };

  return {
    paused: () => paused,
    pausedProviders: () => [...pausedSet],
    pause(instance) {
      if (instance === undefined) paused = true;
      else pausedSet.add(instance);
      persist();
    },
    resume(instance) {
      if (instance === undefined) paused = false;
      else pausedSet.delete(instance);
      persist();
    },
    hold(instance) {
      if (pausedSet.has(instance)) return { kind: 'paused', message: 'Paused: no new job starts here until resumed.' };
      const cap = deps.capHold?.(instance) ?? null;
      if (cap !== null) return { kind: 'spend', message: cap };
      const now = deps.clock.now();
      const back = backoffs.get(instance);
      if (back !== undefined) {
        if (back.until > now) return { kind: 'backoff', message: back.message, until: back.until };
        backoffs.delete(instance);
      }
      const limit = deps.perMinute(instance);
      if (limit !== undefined) {
        const times = recent(instance, now);
        if (times.length >= limit) {
          const until = times[times.length - limit]! + MINUTE;
          return { kind: 'rate', message: `At its limit of ${limit} job${limit === 1 ? '' : 's'} a minute.`, until };
        }
      }
      return undefined;
    },
    backOff(instance, ms, message) {
      const until = deps.clock.now() + Math.max(0, ms);
      const current = backoffs.get(instance);
      if (current !== undefined && current.until >= until) return;
      backoffs.set(instance, { until, message });
      wakeAt(until);
      deps.onChange();
    },
    started(instance) {
      const limit = deps.perMinute(instance);
      if (limit === undefined) return;
      const now = deps.clock.now();
      const times = recent(instance, now);
      times.push(now);
      // Wakes the queue when the oldest start leaves the minute, so a waiting job starts without another kick.
      if (times.length >= limit) wakeAt(times[times.length - limit]! + MINUTE);
    },
    close() {
      for (const t of timers) t.cancel();
      timers.clear();
    },
  };
}

function safeLoad(deps: QueueControlDeps): PausedState {
  try {
    const state = deps.load();
    if (state !== null && typeof state.paused === 'boolean' && Array.isArray(state.providers)) {
      return { paused: state.paused, providers: state.providers.filter((p) => typeof p === 'string') };
    }
  } catch {
    // An unreadable state starts unpaused: the person sees the queue run and can pause again.
  }
  return { paused: false, providers: [] };
}
