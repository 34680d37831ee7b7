import { readBounded } from '../http/body.js';
import { Deadline } from '../http/deadline.js';
import type { CallScope } from '../http/errors.js';
import { networkError } from '../http/errors.js';
import type { ProviderConfig, ProviderContext } from '../types.js';
import { authHeaders, isRecord, mayCarryKey } from './connection.js';
import type { FalRequest } from './poll.js';

/** The cancel call gets its own short deadline: the job's signal has already fired when it is made. */
const CANCEL_TIMEOUT_MS = 5000;

/**
 * `PUT cancel_url` (docs/hosted-protocols.md §1.3): fal drops a queued request, and asks a running one's runner to
 * stop. http/request.ts sends only GET and POST, so the PUT is made here, with the same manual redirects. What fal
 * answered (CANCELLATION_REQUESTED, ALREADY_COMPLETED, …) goes to the trace; a failed cancel never hides the cancel.
 */
export async function cancelRequest(
  request: FalRequest,
  base: string,
  config: ProviderConfig,
  context: ProviderContext,
  scope: CallScope,
): Promise<void> {
  const deadline = new Deadline(new AbortController().signal, CANCEL_TIMEOUT_MS);
  const own: CallScope = { ...scope, deadline };
  try {
    const headers = {
      accept: 'application/json',
      ...(mayCarryKey(request.cancelUrl, base) ? authHeaders(config) : {}),
    };
    let response: Response;
    try {
      response = await fetch(request.cancelUrl, {
        method: 'PUT',
        headers,
        signal: deadline.signal,
        redirect: 'manual',
      });
    } catch (error) {
      throw networkError(error, own, 'while cancelling');
    }
    let said = '';
    try {
      const json: unknown = JSON.parse((await readBounded(response, 4096, own)).toString('utf8'));
      if (isRecord(json) && typeof json.status === 'string') said = json.status.slice(0, 40);
    } catch {
      // The status code alone says enough.
    }
    const stopped = response.status === 200 || response.status === 202;
    context.trace(
      'cancel',
      stopped
        ? `Asked ${scope.provider} to cancel request ${request.id}${said === '' ? '' : ` (${said})`}; a request already running may still be billed.`
        : `${scope.provider} did not cancel request ${request.id} (HTTP ${response.status}${said === '' ? '' : `, ${said}`}); it may still run and be billed.`,
      { falRequestId: request.id, status: response.status },
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    context.trace('cancel', `Could not reach ${scope.provider} to cancel request ${request.id}: ${message}`, {
      falRequestId: request.id,
    });
  } finally {
    deadline.dispose();
  }
}
