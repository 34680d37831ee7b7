import { type AppError } from '../../../shared/errors.js';
import { type CallScope, abortedError } from '../http/errors.js';
import { send } from '../http/request.js';
import type { ProviderContext } from '../types.js';
import { type Endpoint, jobUrl } from './connection.js';

/** The cancel call has its own short clock: the job's own signal has already fired. */
const CANCEL_TIMEOUT_MS = 10_000;

/**
 * Stops a job on RunPod with `POST /cancel/<id>` (docs/hosted-protocols.md §2.2), which removes a queued job and stops
 * a running one, so the endpoint stops billing for it; the trace says whether RunPod confirmed.
 */
export async function cancelJob(
  endpoint: Endpoint,
  jobId: string,
  headers: Record<string, string>,
  context: ProviderContext,
  scope: CallScope,
): Promise<AppError> {
  try {
    const response = await send(
      jobUrl(endpoint, 'cancel', jobId),
      { method: 'POST', headers, signal: AbortSignal.timeout(CANCEL_TIMEOUT_MS) },
      scope,
      'while cancelling',
    );
    await response.body?.cancel().catch(() => undefined);
    context.trace(
      'cancel',
      response.ok
        ? `Asked ${scope.provider} to cancel job ${jobId}; it confirmed (HTTP ${response.status}).`
        : `Asked ${scope.provider} to cancel job ${jobId}, but it answered HTTP ${response.status}; the job may still run.`,
      { runpodJobId: jobId, status: response.status },
    );
  } catch {
    context.trace('cancel', `Could not reach ${scope.provider} to cancel job ${jobId}; the job may still run.`, {
      runpodJobId: jobId,
    });
  }
  return abortedError(scope, true);
}
