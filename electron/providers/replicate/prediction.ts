import { type CallScope, malformedError } from '../http/errors.js';
import { isRecord } from './connection.js';

/** The statuses of docs/hosted-protocols.md §1.4; `aborted` is a prediction whose deadline passed before it started. */
export const TERMINAL_STATUSES = new Set(['succeeded', 'failed', 'canceled', 'aborted']);

/** The parts of a prediction object Atelier reads, every string bounded. */
export interface Prediction {
  id: string;
  status: string;
  getUrl?: string;
  cancelUrl?: string;
  logs?: string;
  error?: string;
  output: unknown;
  /** Replicate removed the prediction's inputs and outputs (they expire). */
  dataRemoved: boolean;
  predictSeconds?: number;
}

/** Logs can be long; progress and the seed are near their end. */
const LOG_TAIL = 16 * 1024;

export function readPrediction(json: unknown, scope: CallScope, what: string): Prediction {
  if (!isRecord(json) || typeof json.id !== 'string' || json.id === '' || typeof json.status !== 'string')
    throw malformedError(scope, `${what} without an id and status`);
  const prediction: Prediction = {
    id: json.id.slice(0, 200),
    status: json.status.slice(0, 40),
    output: json.output ?? null,
    dataRemoved: json.data_removed === true,
  };
  const urls = isRecord(json.urls) ? json.urls : {};
  if (typeof urls.get === 'string') prediction.getUrl = urls.get.slice(0, 2000);
  if (typeof urls.cancel === 'string') prediction.cancelUrl = urls.cancel.slice(0, 2000);
  if (typeof json.logs === 'string') prediction.logs = json.logs.slice(-LOG_TAIL);
  if (typeof json.error === 'string' && json.error !== '') prediction.error = json.error.slice(0, 2000);
  else if (isRecord(json.error) && typeof json.error.message === 'string')
    prediction.error = json.error.message.slice(0, 2000);
  const metrics = isRecord(json.metrics) ? json.metrics : {};
  if (typeof metrics.predict_time === 'number' && Number.isFinite(metrics.predict_time))
    prediction.predictSeconds = metrics.predict_time;
  return prediction;
}
