import type { RemoteTask } from '../types.js';
import type { FalRequest } from './poll.js';

/** What a later run needs to find an accepted request again: its id, model id and fal's own three URLs. */
export function remoteOf(request: FalRequest): RemoteTask {
  return {
    id: request.id,
    data: {
      model: request.model,
      statusUrl: request.statusUrl,
      responseUrl: request.responseUrl,
      cancelUrl: request.cancelUrl,
    },
  };
}

/** The stored remote back as a request; URLs an older record lacks are built from the model id by the caller. */
export function requestOf(
  remote: RemoteTask,
  fallbackModel: string,
  built: (model: string) => Omit<FalRequest, 'id' | 'model'>,
): FalRequest {
  const data = remote.data ?? {};
  const model = data.model !== undefined && data.model !== '' ? data.model : fallbackModel;
  const urls = built(model);
  const pick = (value: string | undefined, fallback: string) =>
    value !== undefined && /^https?:\/\//i.test(value) ? value : fallback;
  return {
    id: remote.id,
    model,
    statusUrl: pick(data.statusUrl, urls.statusUrl),
    responseUrl: pick(data.responseUrl, urls.responseUrl),
    cancelUrl: pick(data.cancelUrl, urls.cancelUrl),
  };
}
