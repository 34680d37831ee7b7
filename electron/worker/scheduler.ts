import type { QueuedJob } from '../db/types.js';
import { runJob, type AbortReason, type RunJobDeps } from './run-job.js';
import { createTerminalWrites } from './terminal-writes.js';

/** After the store refused to hand out work (a full or vanished disk), the worker looks again this much later. */
export const PUMP_RETRY_MS = 2_000;

export interface SchedulerLimits {
  global: number;
  perProvider(providerId: string): number;
}

export interface Scheduler {
  /** Begins taking work (the engine calls it once start-up housekeeping is done). */
  start(): void;
  /** Looks for work now (after a submit, a finished job or a settings change). */
  kick(): void;
  /** Aborts a running job through its provider's cancel path; false if it isn't running here. */
  cancel(jobId: string): boolean;
  isRunning(jobId: string): boolean;
  runningCount(): number;
  /** Stops taking work, waits up to graceMs for running jobs, then aborts the rest. */
  stop(graceMs: number): Promise<void>;
}

interface Running {
  provider: string;
  controller: AbortController;
  done: Promise<void>;
}

/** Claims the oldest queued job whenever a global and a per-provider slot are free. */
export function createScheduler(
  deps: RunJobDeps & { limits: () => SchedulerLimits },
): Scheduler {
  const running = new Map<string, Running>();
  let accepting = false;
  let stopped = false;
  let scheduled = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  const terminal = createTerminalWrites({
    ...(deps.log === undefined ? {} : { log: deps.log }),
    onWritten: (jobId) => {
      try {
        deps.bus.emit('jobs.changed', { job: deps.store.getSummary(jobId) });
      } catch (error) {
        deps.log?.warn('could not announce a job change', { jobId, error: String(error) });
      }
    },
  });
  const jobDeps: RunJobDeps = { ...deps, terminal };

  const perProviderCount = (provider: string): number => {
    let n = 0;
    for (const r of running.values()) if (r.provider === provider) n += 1;
    return n;
  };

  const start = (job: QueuedJob): void => {
    const controller = new AbortController();
    const done = runJob(job, controller, jobDeps)
      .catch((error: unknown) => deps.log?.error('a job escaped its own error handling', { jobId: job.id, error: String(error) }))
      .finally(() => {
        running.delete(job.id);
        scheduler.kick();
      });
    running.set(job.id, { provider: job.provider, controller, done });
  };

  const pump = (): void => {
    scheduled = false;
    if (!accepting) return;
    try {
      // Jobs whose end is still waiting for the disk go first: the space may be back.
      if (terminal.pending() > 0) terminal.flush();
      take();
    } catch (error) {
      // Runs in a microtask: a throw here would take the process down. Try again a little later.
      deps.log?.warn('the worker could not look for work', { error: String(error) });
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => scheduler.kick(), PUMP_RETRY_MS);
      retryTimer.unref();
    }
  };

  const take = (): void => {
    const limits = deps.limits();
    while (running.size < limits.global) {
      const free = limits.global - running.size;
      // Look a little past the free slots so a busy provider does not block others behind it.
      const candidates = deps.store.queued(Math.max(50, free * 10));
      const next = candidates.find(
        (job) => !running.has(job.id) && perProviderCount(job.provider) < limits.perProvider(job.provider),
      );
      if (next === undefined) return;
      if (deps.store.claim(next.id)) start(next);
    }
  };

  const scheduler: Scheduler = {
    start() {
      if (stopped) return;
      accepting = true;
      scheduler.kick();
    },
    kick() {
      if (scheduled || !accepting) return;
      scheduled = true;
      queueMicrotask(pump);
    },
    cancel(jobId) {
      const r = running.get(jobId);
      if (r === undefined) return false;
      r.controller.abort('cancel' satisfies AbortReason);
      return true;
    },
    isRunning: (jobId) => running.has(jobId),
    runningCount: () => running.size,
    async stop(graceMs) {
      accepting = false;
      stopped = true;
      const all = Promise.allSettled([...running.values()].map((r) => r.done));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([all, grace]);
      clearTimeout(timer);
      for (const r of running.values()) r.controller.abort('shutdown' satisfies AbortReason);
      await all;
      clearTimeout(retryTimer);
      // A last try; what is still refused stays running and the next start marks it interrupted.
      terminal.flush();
      terminal.close();
      deps.throttle.close();
    },
  };
  return scheduler;
}
