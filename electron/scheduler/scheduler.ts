import { AppError } from '../../shared/errors.js';
import { kindOfTarget, type QueueWait } from '../../shared/contract.js';
import type { QueuedJob } from '../db/types.js';
import type { GenerateRequest } from '../../shared/contract.js';
import type { QueueControl } from './queue-control.js';
import type { ModelLookup, ProviderPool } from './ports.js';
import type { Provider } from '../providers/types.js';
import type { InstanceHealthTracker } from './instance-health.js';
import { place, type PlacementInstance, type PlacementResult } from './placement.js';
import { runJob, type AbortReason, type RunJobDeps } from './run-job.js';
import { createTerminalWrites } from './terminal-writes.js';

/** Kinds whose servers are the person's own (no bill): work lost with one may run again on another. */
const LOCAL_KINDS: ReadonlySet<string> = new Set(['a1111', 'comfyui']);
/** How far down the queue one pass looks for work an idle instance could run. */
const LOOK_AHEAD = 500;

/** How long a provider that answered 429 without saying how long to wait holds its new jobs. */
const BACKOFF_MS = 10_000;

/** After the store refused to hand out work (a full or vanished disk), the worker looks again this much later. */
export const PUMP_RETRY_MS = 2_000;
/** How long a finished job's previews stay on disk: a page shown the last one just before the end may still ask for it. */
export const PREVIEW_LINGER_MS = 30_000;

export interface SchedulerLimits {
  global: number;
  perProvider(providerId: string): number;
  /** How long a job asking for a down instance by id waits for it before it fails unsent (its timeout). */
  waitMs?(providerId: string): number;
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
  /** Why queued jobs are held up by the disk (full, read-only, gone); null when nothing waits for it. */
  waiting(): QueueWait | null;
  /** Stops taking work, waits up to graceMs for running jobs, then aborts the rest. */
  stop(graceMs: number): Promise<void>;
}

interface Running {
  /** The instance it runs on. */
  provider: string;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Places queued jobs on instances whenever a global and a per-instance slot are free (placement.ts), runs them, and
 * watches each run for a server that stopped answering: it is marked down, and a local job that asked for any
 * instance of its kind goes back to the queue for another.
 */
export function createScheduler(
  deps: RunJobDeps & {
    limits: () => SchedulerLimits;
    instances: InstanceHealthTracker;
    models?: ModelLookup;
    previewLingerMs?: number;
    /** Pauses, back-offs and per-minute limits (queue-control.ts); absent, nothing holds the queue. */
    control?: QueueControl;
    /** Admits paid work against its provider's monthly cap before it is sent (electron/spend/spend-gate.ts). */
    admit?: (jobId: string, instance: string, kind: string, request: GenerateRequest) => { ok: true } | { ok: false };
    /** A spend cap refused a job this pass (the engine announces the queue's state). */
    onHeld?: () => void;
  },
): Scheduler {
  const running = new Map<string, Running>();
  /** Jobs whose server went away mid-run, to put back in the queue once runJob has let go of them. */
  const rerun = new Map<string, { from: string; message: string }>();
  /** Jobs asking for a down instance by id that were told so, with the moment it went down. */
  const toldWaiting = new Map<string, number>();
  /** When each of those began to wait, and the timer that looks again at its deadline. */
  const waitingSince = new Map<string, number>();
  let waitTimer: ReturnType<typeof setTimeout> | undefined;
  let accepting = false;
  let stopped = false;
  let scheduled = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set while the disk refuses the writes that start or end jobs: said in stats and events, never only in the log. */
  let diskWait: QueueWait | null = null;
  /** The disk refused a look for work (a claim) during this wait: logged once, not at every retry. */
  let lookRefused = false;
  const waitForDisk = (cause: unknown): void => {
    if (diskWait !== null) return;
    const error = cause instanceof AppError ? cause : null;
    const reason = error?.details?.['reason'];
    diskWait = {
      for: reason === 'disk_full' || reason === 'quota' ? 'disk_space' : 'library_disk',
      message: error?.message ?? 'The disk refused to save a change.',
      since: deps.clock.now(),
    };
    deps.log?.warn('the queue waits for the disk', { error: String(cause) });
    deps.bus.emit('jobs.queue', { waiting: diskWait });
  };
  const diskBack = (): void => {
    lookRefused = false;
    if (diskWait === null) return;
    diskWait = null;
    deps.log?.info('the disk takes writes again: the queue moves');
    deps.bus.emit('jobs.queue', { waiting: null });
  };
  const terminal = createTerminalWrites({
    ...(deps.log === undefined ? {} : { log: deps.log }),
    onWritten: (jobId) => {
      try {
        deps.bus.emit('jobs.changed', { job: deps.store.getSummary(jobId) });
      } catch (error) {
        deps.log?.warn('could not announce a job change', { jobId, error: String(error) });
      }
      // The disk took a write again: the jobs queued behind it may start now.
      scheduler.kick();
    },
    onDeferred: waitForDisk,
  });
  // A job's previews go a while after its end, not at once: the last tick and the end reach a busy page together,
  // and its request for that preview would meet a file already deleted (a 404 in the console).
  const lingering = new Map<string, ReturnType<typeof setTimeout>>();
  const clearPreviewsNow = (jobId: string): Promise<void> => deps.media.clearPreviews(jobId).catch(() => undefined);
  const keepPreviews = (jobId: string): void => {
    clearTimeout(lingering.get(jobId));
    lingering.delete(jobId);
  };
  const media: RunJobDeps['media'] = {
    ...deps.media,
    clearPreviews: async (jobId) => {
      keepPreviews(jobId);
      const timer = setTimeout(() => {
        lingering.delete(jobId);
        void clearPreviewsNow(jobId);
      }, deps.previewLingerMs ?? PREVIEW_LINGER_MS);
      timer.unref?.();
      lingering.set(jobId, timer);
    },
  };
  const jobDeps: RunJobDeps = { ...deps, terminal, media };

  // The provider a run sees: every failure that says its server stopped answering is checked and acted on here.
  const watched = (provider: Provider, job: QueuedJob, instance: string): Provider => ({
    ...provider,
    async generate(request, config, context) {
      try {
        const output = await provider.generate(request, config, context);
        deps.instances.succeeded(instance, request.model ?? config.model);
        return output;
      } catch (error) {
        if (context.signal.aborted) throw error;
        backOffOn(error, instance, provider.name);
        const lost = connectionLoss(error);
        if (lost === null) throw error;
        // A dropped connection may be this request's alone: only a server that fails a probe too is down.
        if (lost === 'refused') deps.instances.markDown(instance, messageOf(error));
        else if (await deps.instances.check(instance)) throw error;
        const kind = deps.providers.kindOf(instance);
        if (kind === undefined || kindOfTarget(job.provider) !== kind || !LOCAL_KINDS.has(kind)) throw error;
        // Work a provider holds by id is collected again there (run-job.ts), never run a second time elsewhere.
        if (job.remote !== undefined) throw error;
        rerun.set(job.id, { from: instance, message: messageOf(error) });
        // runJob leaves an interrupted job's row as it is; the scheduler then puts it back in the queue.
        throw new AppError('interrupted', `${provider.name} stopped answering.`, { retryable: false });
      }
    },
  });

  // A provider that said "too many" holds every job for it, not only the one that heard it.
  const backOffOn = (error: unknown, instance: string, name: string): void => {
    if (deps.control === undefined || !(error instanceof AppError) || error.code !== 'provider_rate_limited') return;
    const asked = Number(error.details?.['retryAfterMs'] ?? 0);
    const ms = Number.isFinite(asked) && asked > 0 ? Math.min(asked, 15 * 60_000) : BACKOFF_MS;
    deps.control.backOff(instance, ms, `${name} asked Atelier to slow down: new jobs wait ${Math.ceil(ms / 1000)} s.`);
  };

  const depsFor = (job: QueuedJob, instance: string): RunJobDeps => ({
    ...jobDeps,
    providers: {
      ...deps.providers,
      ready: (id: string) =>
        deps.providers
          .ready(id)
          .then((ready) => ({ provider: watched(ready.provider, job, instance), config: ready.config })),
    } satisfies ProviderPool,
  });

  const requeue = (job: QueuedJob): void => {
    const lost = rerun.get(job.id);
    rerun.delete(job.id);
    if (lost === undefined) return;
    const kind = kindOfTarget(job.provider) ?? job.provider;
    try {
      const back = deps.store.requeue(
        job.id,
        `${lost.from} stopped answering (${lost.message}) while running this job: it runs again on another ${kind} server (nothing is billed on your own servers).`,
        { from: lost.from, reason: lost.message },
      );
      if (!back) deps.store.markCancelled(job.id);
      deps.bus.emit('jobs.changed', { job: deps.store.getSummary(job.id) });
    } catch (error) {
      // The row stays running: the next start marks it interrupted, like any job lost mid-run.
      deps.log?.warn('could not put a job back in the queue', { jobId: job.id, error: String(error) });
    }
  };

  const perProviderCount = (provider: string): number => {
    let n = 0;
    for (const r of running.values()) if (r.provider === provider) n += 1;
    return n;
  };

  const start = (job: QueuedJob, instance: string): void => {
    const controller = new AbortController();
    deps.instances.started(instance, job.id);
    // Run again (its server went away): the previews it had are its own still.
    keepPreviews(job.id);
    toldWaiting.delete(job.id);
    waitingSince.delete(job.id);
    const done = runJob({ ...job, provider: instance }, controller, depsFor(job, instance))
      .catch((error: unknown) =>
        deps.log?.error('a job escaped its own error handling', { jobId: job.id, error: String(error) }),
      )
      .finally(() => {
        deps.instances.finished(instance, job.id);
        running.delete(job.id);
        requeue(job);
        scheduler.kick();
      });
    running.set(job.id, { provider: instance, controller, done });
  };

  const pump = (): void => {
    scheduled = false;
    if (!accepting) return;
    try {
      // Jobs whose end is still waiting for the disk go first: the space may be back.
      if (terminal.pending() > 0) terminal.flush();
      take();
      // No write refused this pass and no job's end still kept: whatever holds the queue now, it is not the disk.
      if (terminal.pending() === 0) diskBack();
    } catch (error) {
      // Runs in a microtask: a throw here would take the process down. Try again a little later.
      if (isStorage(error)) {
        // Said once per wait (stats and an event carry it), not at every look.
        if (!lookRefused) deps.log?.warn('the worker could not look for work', { error: String(error) });
        lookRefused = true;
        waitForDisk(error);
      } else deps.log?.warn('the worker could not look for work', { error: String(error) });
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => scheduler.kick(), PUMP_RETRY_MS);
      retryTimer.unref();
    }
  };

  const instancesNow = (limits: SchedulerLimits): PlacementInstance[] =>
    deps.providers.instances().map(({ id, kind }) => {
      const health = deps.instances.view(id);
      const down = health.state === 'down';
      const instance: PlacementInstance = {
        id,
        kind,
        free: limits.perProvider(id) - perProviderCount(id),
        usable: !down && deps.providers.placeable(id),
        down,
      };
      if (deps.control?.hold(id) !== undefined) instance.held = true;
      const models = deps.models?.get(id)?.models;
      if (models !== undefined) instance.models = models;
      if (health.loadedModel !== undefined) instance.loadedModel = health.loadedModel;
      return instance;
    });

  // An any:<kind> job while every server of its kind is down waits for one, up to that server's timeout; then it fails unsent.
  const tellWaiting = (jobId: string, instance: string, limits: SchedulerLimits): number => {
    const now = deps.clock.now();
    const since = deps.instances.view(instance).since ?? 0;
    const kind = deps.providers.kindOf(instance) ?? instance;
    if (toldWaiting.get(jobId) !== since) {
      toldWaiting.set(jobId, since);
      deps.store.appendEvent(jobId, 'waiting', `No ${kind} server is answering: this job waits for one to come back.`, {
        instance,
      });
    }
    const began = waitingSince.get(jobId) ?? now;
    waitingSince.set(jobId, began);
    const limit = limits.waitMs?.(instance) ?? Infinity;
    if (now - began < limit) return began + limit;
    waitingSince.delete(jobId);
    toldWaiting.delete(jobId);
    const seconds = Math.round(limit / 1000);
    deps.store.fail(jobId, {
      code: 'provider_unavailable',
      message: `No ${kind} server answered for ${seconds} s, so this job was never sent. Retry it once a server is back.`,
      retryable: false,
      details: { instance, sent: false },
    });
    deps.bus.emit('jobs.changed', { job: deps.store.getSummary(jobId) });
    return Infinity;
  };

  const planFor = (page: QueuedJob[], instances: PlacementInstance[], free: number) => {
    const queued = page.filter((job) => !running.has(job.id));
    const byId = new Map(queued.map((job) => [job.id, job]));
    // Accepted work is collected where it was accepted, held or not: nothing new is sent, and it may be paid already.
    const collect: PlacementResult['placements'] = [];
    const room = new Map(instances.map((i) => [i.id, i.free]));
    for (const job of queued) {
      if (job.remote === undefined || collect.length >= free) continue;
      const left = room.get(job.remote.instance) ?? 1;
      if (left <= 0) continue;
      room.set(job.remote.instance, left - 1);
      collect.push({ jobId: job.id, instance: job.remote.instance });
    }
    const jobs = queued
      .filter((job) => job.remote === undefined)
      .map((job) =>
        job.request.model === undefined
          ? { id: job.id, target: job.provider }
          : { id: job.id, target: job.provider, model: job.request.model },
      );
    const rest = place(
      jobs,
      instances.map((i) => ({ ...i, free: room.get(i.id) ?? i.free })),
      free - collect.length,
    );
    return { byId, result: { placements: [...collect, ...rest.placements], waiting: rest.waiting } };
  };

  const take = (): void => {
    const limits = deps.limits();
    const free = limits.global - running.size;
    if (free <= 0) return;
    // Paused: nothing new starts; work a provider already accepted is still collected (planFor places it first).
    const paused = deps.control?.paused() === true;
    const instances = instancesNow(limits).map((i) => (paused ? { ...i, held: true } : i));
    // A short page first (most passes place from its head); a longer one only when slots stay free behind it.
    let limit = Math.max(50, free * 10);
    let queued = deps.store.queued(limit);
    let plan = planFor(queued, instances, free);
    if (plan.result.placements.length < free && queued.length === limit && limit < LOOK_AHEAD) {
      limit = LOOK_AHEAD;
      queued = deps.store.queued(limit);
      plan = planFor(queued, instances, free);
    }
    const {
      byId,
      result: { placements, waiting },
    } = plan;
    const due = Math.min(...waiting.map((w) => tellWaiting(w.jobId, w.instance, limits)));
    clearTimeout(waitTimer);
    if (Number.isFinite(due)) {
      // Real time, not the engine clock: a wait is looked at again when its deadline passes.
      waitTimer = setTimeout(() => scheduler.kick(), Math.max(10, due - deps.clock.now()));
      waitTimer.unref?.();
    }
    const refused = new Set<string>();
    for (const { jobId, instance } of placements) {
      const job = byId.get(jobId)!;
      if (job.remote === undefined) {
        // A hold can begin within this pass (its per-minute limit reached by the jobs just started).
        if (refused.has(instance) || deps.control?.hold(instance) !== undefined) continue;
        // Its spend cap: a job that would pass it is not sent; the gate's message holds the provider's queue.
        const kind = deps.providers.kindOf(instance) ?? instance;
        if (deps.admit !== undefined && !deps.admit(job.id, instance, kind, job.request).ok) {
          refused.add(instance);
          continue;
        }
      }
      // The instance is recorded for work that asked for any of a kind: a job asking for one server names it already.
      const record = kindOfTarget(job.provider) === undefined ? undefined : instance;
      if (deps.store.claim(job.id, record)) {
        if (job.remote === undefined) deps.control?.started(instance);
        start(job, instance);
      } else deps.spend?.release(job.id);
    }
    if (refused.size > 0) deps.onHeld?.();
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
    waiting: () => diskWait,
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
      clearTimeout(waitTimer);
      const ended = [...lingering.keys()];
      for (const jobId of ended) keepPreviews(jobId);
      await Promise.all(ended.map(clearPreviewsNow));
      deps.instances.close();
      // A last try; what is still refused stays running and the next start marks it interrupted.
      terminal.flush();
      terminal.close();
      deps.throttle.close();
    },
  };
  return scheduler;
}

/** A failure that says the server may be gone: refused outright, or a connection that dropped or timed out. */
function connectionLoss(error: unknown): 'refused' | 'dropped' | null {
  if (!(error instanceof AppError)) return null;
  if (error.code === 'provider_unavailable') return error.details?.['sent'] === false ? 'refused' : 'dropped';
  if (error.code === 'timeout') return 'dropped';
  // A provider that answered with an error is up; only a connection that broke (http/errors.ts droppedError) may not be.
  if (error.code === 'provider_error' && error.details?.['dropped'] === true) return 'dropped';
  return null;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const isStorage = (error: unknown): error is AppError => error instanceof AppError && error.code === 'storage';
