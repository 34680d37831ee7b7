import type { AppError } from '../../../shared/errors.js';

/** A file ComfyUI wrote, as /history, `executed` and /view name it. */
export interface ImageRef {
  filename: string;
  subfolder: string;
  type: string;
}

export function isImageRef(value: unknown): value is ImageRef {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.filename === 'string' &&
    typeof (v.subfolder ?? '') === 'string' &&
    typeof (v.type ?? 'output') === 'string'
  );
}

/**
 * How the server's end signal arrived: `executing {node: null}` for our prompt (sent after its history is written), or
 * the socket closed.
 */
export type EndSignal = 'signal' | 'closed';

/** What one prompt's socket has told us so far. */
export interface RunState {
  started: boolean;
  /** Atelier is done listening (result read, or failed): late frames are dropped. */
  finished: boolean;
  interrupted: boolean;
  /** A cancel is waiting for the server to stop: progress is no longer shown as steps. */
  stopping: boolean;
  executedImages: ImageRef[];
  /** Node ids the server reused from its cache instead of running. */
  cachedNodes: string[];
  previews: number;
  progressMessages: number;
  /** When the last sampler step (or the start) was heard, and the longest gap between two, for the cancel wait. */
  lastTickAt?: number;
  longestStepMs: number;
}

export function newRunState(): RunState {
  return {
    started: false,
    finished: false,
    interrupted: false,
    stopping: false,
    executedImages: [],
    cachedNodes: [],
    previews: 0,
    progressMessages: 0,
    longestStepMs: 0,
  };
}

/** Notes a sign of life from the running prompt; the gap since the last one is how long a step can take. */
export function tick(state: RunState, now: number): void {
  if (state.lastTickAt !== undefined) state.longestStepMs = Math.max(state.longestStepMs, now - state.lastTickAt);
  state.lastTickAt = now;
}

/** A prompt whose every node came from the cache ran nothing: the server hands back an earlier run's files. */
export function fullyCached(state: RunState, nodeIds: readonly string[]): boolean {
  return nodeIds.length > 0 && nodeIds.every((id) => state.cachedNodes.includes(id));
}

/** Callbacks that end a run: `settle` with its outcome (an error, or none), `end` with how the server signalled it. */
export interface RunSignals {
  settle(error?: AppError): void;
  end(how: EndSignal): void;
}
