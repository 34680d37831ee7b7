import { kindOfTarget } from '../../shared/contract.js';

/** A queued job as placement sees it: what it asked for (an instance id or any:<kind>) and its model. */
export interface PlacementJob {
  id: string;
  target: string;
  model?: string;
}

export interface PlacementInstance {
  id: string;
  kind: string;
  /** Slots left under its own concurrency. */
  free: number;
  /** On, set up and not down: any:<kind> work may go there. */
  usable: boolean;
  /** Marked down (any:<kind> work goes elsewhere, or waits when every server of the kind is down). */
  down: boolean;
  /** Its server's model list; undefined when never listed (it may have any model). */
  models?: readonly string[];
  /** The model it last ran (kept loaded by the server). */
  loadedModel?: string;
  /** Takes no new work now (paused by the person, backing off, at its spend cap): jobs for it wait, any:<kind> go elsewhere. */
  held?: boolean;
}

export interface PlacementResult {
  placements: Array<{ jobId: string; instance: string }>;
  /** any:<kind> jobs while every server of the kind is down (instance: one of them): they wait for one to come back. */
  waiting: Array<{ jobId: string; instance: string }>;
}

const mayHave = (instance: PlacementInstance, model: string): boolean =>
  instance.models === undefined || instance.models.length === 0 || instance.models.includes(model);

/**
 * Hands queued jobs (oldest first) to instances with a free slot, looking past jobs that cannot run now, so no
 * usable instance stays idle while a job it could run waits. any:<kind> goes to a usable instance of the kind that may
 * have the model, preferring the one that has it loaded, then the one with most room. A job asking for one instance
 * goes only there (down, off or not set up: it runs and fails with that instance's own reason, nothing sent).
 */
export function place(
  jobs: readonly PlacementJob[],
  instances: readonly PlacementInstance[],
  globalFree: number,
): PlacementResult {
  const free = new Map(instances.map((i) => [i.id, i.free]));
  const byId = new Map(instances.map((i) => [i.id, i]));
  const result: PlacementResult = { placements: [], waiting: [] };
  let slots = globalFree;
  for (const job of jobs) {
    if (slots <= 0) break;
    const kind = kindOfTarget(job.target);
    if (kind === undefined) {
      const own = byId.get(job.target);
      // An id the registry does not know: the run says so with its own error.
      if (own === undefined) {
        result.placements.push({ jobId: job.id, instance: job.target });
        slots -= 1;
        continue;
      }
      // Down or not, the person chose this server: the run tries it and says plainly that nothing was sent.
      if ((free.get(own.id) ?? 0) <= 0 || own.held === true) continue;
      result.placements.push({ jobId: job.id, instance: own.id });
      free.set(own.id, (free.get(own.id) ?? 0) - 1);
      slots -= 1;
      continue;
    }
    const ofKind = instances.filter((i) => i.kind === kind && i.usable && i.held !== true);
    if (ofKind.length === 0) {
      // Held (paused, backing off): the job waits in its place without a word; only servers that are down are told.
      if (instances.some((i) => i.kind === kind && i.usable && i.held === true)) continue;
      // Every server of the kind is down: the job waits for one to answer a probe (bounded by the scheduler).
      const down = instances.find((i) => i.kind === kind && i.down);
      if (down !== undefined) result.waiting.push({ jobId: job.id, instance: down.id });
      continue;
    }
    // When no server of the kind lists the model, the filter would strand the job: let a server answer for itself.
    const model = job.model;
    const filtered =
      model !== undefined && ofKind.some((i) => mayHave(i, model)) ? ofKind.filter((i) => mayHave(i, model)) : ofKind;
    const open = filtered.filter((i) => (free.get(i.id) ?? 0) > 0);
    if (open.length === 0) continue;
    const loaded = (i: PlacementInstance): number => (model !== undefined && i.loadedModel === model ? 1 : 0);
    open.sort((a, b) => loaded(b) - loaded(a) || (free.get(b.id) ?? 0) - (free.get(a.id) ?? 0));
    const chosen = open[0]!;
    result.placements.push({ jobId: job.id, instance: chosen.id });
    free.set(chosen.id, (free.get(chosen.id) ?? 0) - 1);
    slots -= 1;
  }
  return result;
}
