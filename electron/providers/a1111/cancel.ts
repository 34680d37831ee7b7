import { joinUrl } from '../http/url.js';
import type { ProviderContext } from '../types.js';
import type { ProgressPoller } from './progress.js';

/** A1111's interrupt is global: send it only when our task is the one running, never to stop someone else's. */
export async function stopRemoteTask(
  poller: ProgressPoller,
  base: string,
  headers: Record<string, string>,
  context: ProviderContext,
  why: 'cancel' | 'timeout',
): Promise<boolean> {
  const state = await poller.refresh();
  if (!state.active) {
    context.trace(
      'cancel',
      state.queued
        ? 'A1111 had not started the task yet; its queue cannot be edited over the API, so it may still run later. ' +
            'No interrupt sent.'
        : 'The task was not running on A1111; no interrupt sent.',
    );
    return false;
  }
  try {
    const response = await fetch(joinUrl(base, 'sdapi/v1/interrupt'), {
      method: 'POST',
      headers: { ...headers, accept: 'application/json' },
      signal: AbortSignal.timeout(5_000),
    });
    await response.body?.cancel();
    context.trace('cancel', `Sent /sdapi/v1/interrupt to A1111 (${why}); HTTP ${response.status}.`, {
      status: response.status,
      mode: poller.mode,
    });
    return response.status === 200;
  } catch (error) {
    context.trace(
      'warning',
      `Could not send the interrupt to A1111: ${error instanceof Error ? error.message : String(error)}`,
    );
    return false;
  }
}
