import type { InstanceHealth } from '../../shared/contract.js';
import type { Clock } from '../base/clock.js';

/** Down instances are probed after 2 s, 4 s, 8 s… up to a minute between probes. */
export const DEFAULT_PROBE_BACKOFF = { firstMs: 2_000, maxMs: 60_000 };

const MAX_MESSAGE = 500;

/** What the scheduler knows of each instance (up, down, running, loaded model). */
export interface InstanceHealthView {
  view(id: string): InstanceHealth;
  /** A connection test's outcome counts as a probe. */
  observe(id: string, ok: boolean, message: string): void;
  forget(id: string): void;
}

export interface InstanceHealthTracker extends InstanceHealthView {
  isDown(id: string): boolean;
  /** Stops sending it work and probes it with backoff until it answers again. */
  markDown(id: string, message: string): void;
  /** Probes now (a dropped connection: is the server gone, or was it only this request?); true when it answers. */
  check(id: string): Promise<boolean>;
  started(id: string, jobId: string): void;
  /** A job ran to its end there: it answers, and keeps that model loaded. */
  succeeded(id: string, model: string | undefined): void;
  finished(id: string, jobId: string): void;
  /** Connects the probe and the change notice once the registry and the scheduler exist (they need this first). */
  connect(ports: InstanceHealthPorts): void;
  close(): void;
}

export interface InstanceHealthPorts {
  /** A connection test of the instance (the registry's test, which reports back through observe). */
  probe: (id: string) => Promise<unknown>;
  /** Something changed the scheduler should act on (an instance came back). */
  onChange: () => void;
}

interface State {
  state: InstanceHealth['state'];
  since?: number;
  nextProbeAt?: number;
  message?: string;
  running: Set<string>;
  loadedModel?: string;
  attempt: number;
  timer?: ReturnType<typeof setTimeout> | undefined;
  /** The address and login it went down with: a new one is a new server, not known down. */
  connection?: string;
}

export function createInstanceHealth(options: {
  clock: Clock;
  backoff?: { firstMs: number; maxMs: number };
  /** What a connection depends on (address, login); changed in Settings, a down instance is unknown again. */
  connection?: (id: string) => string;
}): InstanceHealthTracker {
  const backoff = options.backoff ?? DEFAULT_PROBE_BACKOFF;
  const states = new Map<string, State>();
  let closed = false;
  // Until connect(): a down instance waits unprobed (nothing is placed before the scheduler starts anyway).
  let ports: InstanceHealthPorts = { probe: () => Promise.resolve(), onChange: () => undefined };

  const of = (id: string): State => {
    let s = states.get(id);
    if (
      s !== undefined &&
      s.state === 'down' &&
      options.connection !== undefined &&
      options.connection(id) !== s.connection
    ) {
      clearTimeout(s.timer);
      const kept: State = { state: 'unknown', running: s.running, attempt: 0 };
      if (s.loadedModel !== undefined) kept.loadedModel = s.loadedModel;
      states.set(id, kept);
      return kept;
    }
    if (s === undefined) {
      s = { state: 'unknown', running: new Set(), attempt: 0 };
      states.set(id, s);
    }
    return s;
  };

  const schedule = (id: string, s: State): void => {
    clearTimeout(s.timer);
    if (closed) return;
    const delay = Math.min(backoff.maxMs, backoff.firstMs * 2 ** s.attempt);
    s.nextProbeAt = options.clock.now() + delay;
    s.timer = setTimeout(() => {
      s.timer = undefined;
      // The probe reports through observe(); one that throws counts as not answering.
      ports.probe(id).catch((error: unknown) => tracker.observe(id, false, String(error)));
    }, delay);
    s.timer.unref?.();
  };

  const up = (id: string): void => {
    const s = of(id);
    const was = s.state;
    clearTimeout(s.timer);
    s.timer = undefined;
    delete s.nextProbeAt;
    delete s.message;
    s.attempt = 0;
    if (was !== 'up') {
      s.state = 'up';
      s.since = options.clock.now();
    }
    if (was === 'down') ports.onChange();
  };

  const tracker: InstanceHealthTracker = {
    view(id) {
      const s = of(id);
      const view: InstanceHealth = { state: s.state, running: [...s.running] };
      if (s.since !== undefined) view.since = s.since;
      if (s.nextProbeAt !== undefined && s.state === 'down') view.nextProbeAt = s.nextProbeAt;
      if (s.message !== undefined) view.message = s.message;
      if (s.loadedModel !== undefined) view.loadedModel = s.loadedModel;
      return view;
    },
    observe(id, ok, message) {
      if (ok) return up(id);
      const s = of(id);
      if (s.state !== 'down') return tracker.markDown(id, message);
      s.attempt += 1;
      s.message = message.slice(0, MAX_MESSAGE);
      schedule(id, s);
    },
    forget(id) {
      clearTimeout(states.get(id)?.timer);
      states.delete(id);
    },
    isDown: (id) => of(id).state === 'down',
    markDown(id, message) {
      const s = of(id);
      s.message = message.slice(0, MAX_MESSAGE);
      // Already down: its backoff keeps going, a second failing job does not restart it.
      if (s.state === 'down') return;
      s.state = 'down';
      s.since = options.clock.now();
      if (options.connection !== undefined) s.connection = options.connection(id);
      s.attempt = 0;
      schedule(id, s);
    },
    async check(id) {
      await ports.probe(id).catch((error: unknown) => tracker.observe(id, false, String(error)));
      return !tracker.isDown(id);
    },
    started(id, jobId) {
      of(id).running.add(jobId);
    },
    succeeded(id, model) {
      up(id);
      const s = of(id);
      if (model !== undefined) s.loadedModel = model;
      else delete s.loadedModel;
    },
    finished(id, jobId) {
      states.get(id)?.running.delete(jobId);
    },
    connect(connected) {
      ports = connected;
    },
    close() {
      closed = true;
      for (const s of states.values()) clearTimeout(s.timer);
    },
  };
  return tracker;
}
