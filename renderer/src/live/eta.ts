/**
 * Time left on a running job, estimated from the progress ticks this window has seen: a smoothed rate of progress,
 * and no number at all until one can be honest.
 */

/** How far along a job is (0..1) from one tick: the provider's fraction, else its step count. */
export function progressOf(
  tick: { fraction?: number | undefined; step?: number | undefined; steps?: number | undefined } | undefined,
): number | null {
  if (tick === undefined) return null;
  if (tick.fraction !== undefined && Number.isFinite(tick.fraction)) return clamp01(tick.fraction);
  if (tick.step !== undefined && tick.steps !== undefined && tick.steps > 0) return clamp01(tick.step / tick.steps);
  return null;
}

export interface EtaState {
  /** The last reading that moved forward: where the job was, and when (ms, any monotonic clock). */
  last: { at: number; done: number } | null;
  /** Smoothed milliseconds per whole job, from the moves seen so far. */
  msPerJob: number | null;
  /** Forward moves that fed the rate. */
  moves: number;
}

export const ETA_START: EtaState = { last: null, msPerJob: null, moves: 0 };

/** Weight of the newest move in the smoothed rate: steadies jitter without lagging a real change for long. */
const SMOOTHING = 0.3;
/** One move can be a lucky or a slow tick: an estimate waits for the rate across two. */
const MIN_MOVES = 2;
/** Past its own estimate by this much, the job has stalled or slowed: the number is dropped rather than kept at 0. */
const OVERDUE_MS = 10_000;
/** Progress that falls back by more than this is a new pass (the next image, a hires pass): the rate starts over. */
const RESTART_DROP = 0.02;
/** Moves smaller than this are rounding, not progress: measured over one rate they would make it infinite. */
const MIN_MOVE = 1e-6;

/** Takes one reading (done 0..1 at a time in ms); readings without progress leave the state as it was. */
export function observe(state: EtaState, done: number | null, at: number): EtaState {
  if (done === null || !Number.isFinite(at)) return state;
  const { last } = state;
  if (last === null || done < last.done - RESTART_DROP) return { last: { at, done }, msPerJob: null, moves: 0 };
  const dt = at - last.at;
  // No progress, or no time: measured from the older reading later, over the larger span.
  if (done - last.done < MIN_MOVE || dt <= 0) return state;
  const rate = dt / (done - last.done);
  const msPerJob = state.msPerJob === null ? rate : state.msPerJob + SMOOTHING * (rate - state.msPerJob);
  return { last: { at, done }, msPerJob, moves: state.moves + 1 };
}

/** Milliseconds left at `now`, or null while unknowable (too few moves, no progress, overdue). Never negative. */
export function estimate(state: EtaState, now: number): number | null {
  const { last, msPerJob } = state;
  if (last === null || msPerJob === null || state.moves < MIN_MOVES) return null;
  const left = (1 - last.done) * msPerJob - Math.max(0, now - last.at);
  if (!Number.isFinite(left) || left < -OVERDUE_MS) return null;
  return Math.max(0, left);
}

/** "~12 s left", "~3 min left", "~1 h 05 min left"; null stays null. */
export function formatEtaShort(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return null;
  if (ms < 1_500) return 'almost done';
  const seconds = Math.round(ms / 1_000);
  if (seconds < 60) return `~${seconds} s left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `~${minutes} min left`;
  return `~${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min left`;
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}
