import { AppError } from '../../../shared/errors.js';
import { Deadline } from '../http/deadline.js';
import type { CallScope } from '../http/errors.js';
import { send } from '../http/request.js';
import type { ProviderConfig, ProviderContext } from '../types.js';
import { PROVIDER, authHeaders, secretsOf } from './connection.js';
import { cancelUrlOf } from './poll.js';
import type { Prediction } from './prediction.js';

const CANCEL_TIMEOUT_MS = 10_000;

/**
 * Asks Replicate to stop a prediction (`POST urls.cancel`) on its own short deadline, since the job's has fired.
 * Whether or not Replicate answers, the job ends: the trace says which.
 */
export async function cancelPrediction(
  prediction: Prediction,
  base: string,
  config: ProviderConfig,
  context: ProviderContext,
): Promise<void> {
  const deadline = new Deadline(new AbortController().signal, CANCEL_TIMEOUT_MS);
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: secretsOf(config) };
  try {
    const url = cancelUrlOf(prediction.id, prediction.cancelUrl, base);
    const response = await send(url, { method: 'POST', headers: authHeaders(config) }, scope);
    await response.body?.cancel().catch(() => undefined);
    context.trace(
      'cancel',
      response.ok
        ? `Asked ${PROVIDER} to cancel prediction ${prediction.id}; it stops billing once it stops.`
        : `${PROVIDER} answered HTTP ${response.status} to cancelling prediction ${prediction.id}; it may still run.`,
      { predictionId: prediction.id },
    );
  } catch (error) {
    const said = error instanceof AppError ? error.message : 'no answer';
    context.trace('cancel', `Could not cancel ${PROVIDER} prediction ${prediction.id} (${said}); it may still run.`, {
      predictionId: prediction.id,
    });
  } finally {
    deadline.dispose();
  }
}
