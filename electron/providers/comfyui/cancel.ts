import { readJson } from '../http/body.js';
import { type CallScope, errorCode } from '../http/errors.js';
import { joinUrl } from '../http/url.js';
import type { ProviderContext } from '../types.js';
import type { EndSignal, RunState } from './run-state.js';

export const STOPPING_STAGE = 'stopping after this step';

export interface StopTarget {
  base: string;
  headers: Record<string, string>;
  promptId: string;
  state: RunState;
  /** Resolves when the server sends its end signal for the prompt, or the socket closes. */
  ended: Promise<EndSignal>;
  context: ProviderContext;
  /** Why it is being stopped ("cancel", "timeout"), for the trace. */
  why: string;
  /** The shortest wait for the server's answer before its queue is asked; a slow step stretches it. */
  minWaitMs: number;
  /** After this long without the server stopping, Atelier stops waiting (and says so in the trace). */
  maxWaitMs: number;
  scope: CallScope;
}

type QueuePlace = 'running' | 'pending' | 'gone' | 'unknown';

const CALL_TIMEOUT_MS = 5_000;
/** /queue lists every queued graph in full: bounded all the same, as any answer from the server. */
const MAX_QUEUE_BYTES = 8 * 1024 * 1024;

/**
 * Stops our prompt on the server (docs/provider-protocols.md §3.6): removed from the queue (harmless when it is not
 * pending), then, once it runs, interrupted by its id. ComfyUI only checks for an interrupt at the next step boundary,
 * which on a loaded machine takes seconds, so this waits for the server's own end signal as long as steps are taking,
 * asking its queue whenever a wait passes in silence, and never returns while the queue still shows the prompt running.
 */
export async function stopOnServer(target: StopTarget): Promise<void> {
  const { promptId, state, context } = target;
  await post(target, 'queue', { delete: [promptId] });
  const place = state.started ? 'running' : await queuePlace(target);
  if (place !== 'running') return;
  state.stopping = true;
  context.onProgress({ stage: STOPPING_STAGE });
  // A body-less /interrupt is global (and old servers ignore the id), so it is only sent when ours is running.
  await post(target, 'interrupt', { prompt_id: promptId });
  const started = Date.now();
  let socketOpen = true;
  for (;;) {
    const wait = Math.max(target.minWaitMs, 2 * state.longestStepMs);
    const heard = await Promise.race([socketOpen ? target.ended : new Promise<never>(() => undefined), delay(wait)]);
    if (heard === 'signal') {
      context.trace('cancel', `ComfyUI stopped prompt ${promptId} after ${seconds(Date.now() - started)}.`);
      return;
    }
    if (heard === 'closed') socketOpen = false;
    const now = await queuePlace(target);
    if (now === 'gone') {
      context.trace(
        'cancel',
        `ComfyUI's queue no longer holds prompt ${promptId} (${seconds(Date.now() - started)} after the interrupt).`,
      );
      return;
    }
    if (now === 'pending') await post(target, 'queue', { delete: [promptId] });
    if (Date.now() - started >= target.maxWaitMs) {
      context.trace(
        'warning',
        `ComfyUI still showed prompt ${promptId} as ${now === 'unknown' ? 'unanswered' : now} ` +
          `${seconds(Date.now() - started)} after the interrupt; Atelier stopped waiting for it.`,
      );
      return;
    }
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A timer that is not tied to the job's (already aborted) signal. */
function delay(ms: number): Promise<'waited'> {
  return new Promise((resolve) => setTimeout(() => resolve('waited'), ms));
}

async function post(target: StopTarget, path: string, json: unknown): Promise<void> {
  try {
    const res = await fetch(joinUrl(target.base, path), {
      method: 'POST',
      headers: { ...target.headers, 'content-type': 'application/json' },
      body: JSON.stringify(json),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    await res.body?.cancel();
    target.context.trace('cancel', `POST /${path} for prompt ${target.promptId} (${target.why}): HTTP ${res.status}.`);
  } catch (error) {
    target.context.trace(
      'warning',
      `Could not send /${path} to ComfyUI: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Where GET /queue shows the prompt; a refused connection means the server (and so the prompt) is gone. */
async function queuePlace(target: StopTarget): Promise<QueuePlace> {
  try {
    const res = await fetch(joinUrl(target.base, 'queue'), {
      headers: target.headers,
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    if (res.status !== 200) {
      await res.body?.cancel();
      return 'unknown';
    }
    const queue = ((await readJson(res, MAX_QUEUE_BYTES, target.scope, 'the queue')) ?? {}) as {
      queue_running?: unknown;
      queue_pending?: unknown;
    };
    const holds = (list: unknown) =>
      Array.isArray(list) && list.some((item) => Array.isArray(item) && item[1] === target.promptId);
    if (holds(queue.queue_running)) return 'running';
    return holds(queue.queue_pending) ? 'pending' : 'gone';
  } catch (error) {
    return errorCode(error) === 'ECONNREFUSED' ? 'gone' : 'unknown';
  }
}
