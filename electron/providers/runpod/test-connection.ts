import type { ProviderTestResult } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { readJson } from '../http/body.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, networkError } from '../http/errors.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import type { ProviderConfig } from '../types.js';
import { type Endpoint, PROVIDER, authHeaders, endpointOf, hasKey, isRecord, secretsOf } from './connection.js';
import { runpodResponseError } from './errors.js';

const TEST_TIMEOUT_MS = 15_000;

function count(record: unknown, key: string): number | undefined {
  if (!isRecord(record)) return undefined;
  const value = record[key];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `/health` in words: "1 worker idle, 0 running; 2 jobs in queue, 1 in progress". */
export function describeHealth(json: unknown): string {
  const workers = isRecord(json) ? json.workers : undefined;
  const jobs = isRecord(json) ? json.jobs : undefined;
  const idle = count(workers, 'idle');
  const running = count(workers, 'running');
  const queued = count(jobs, 'inQueue');
  const inProgress = count(jobs, 'inProgress');
  const parts: string[] = [];
  if (idle !== undefined || running !== undefined) {
    const none = (idle ?? 0) + (running ?? 0) === 0 ? ' (the first job waits while a worker starts)' : '';
    parts.push(`${plural(idle ?? 0, 'worker', 'workers')} idle, ${running ?? 0} running${none}`);
  }
  if (queued !== undefined || inProgress !== undefined)
    parts.push(`${plural(queued ?? 0, 'job', 'jobs')} in queue, ${inProgress ?? 0} in progress`);
  return parts.length === 0 ? 'it did not say how many workers it has' : parts.join('; ');
}

/**
 * `GET /health` is the cheapest authenticated call an endpoint has (docs/hosted-protocols.md §2.2): free, it checks
 * the key and the endpoint id together and says how many workers are up. RunPod cannot list the worker's
 * checkpoints, so the models are the one named in settings.
 */
export async function testConnection(config: ProviderConfig, signal: AbortSignal): Promise<ProviderTestResult> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let endpoint: Endpoint;
  try {
    endpoint = endpointOf(config);
  } catch (error) {
    return { ok: false, reachable: false, models: [], latencyMs: 0, message: (error as Error).message };
  }
  if (!hasKey(config)) {
    const message = 'Add a RunPod API key in settings first.';
    return { ok: false, reachable: false, authenticated: false, models: [], latencyMs: 0, message };
  }
  const models = config.model === undefined || config.model === '' ? [] : [config.model];
  const deadline = new Deadline(signal, Math.min(config.timeoutMs, TEST_TIMEOUT_MS));
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: secretsOf(config) };
  try {
    const response = await send(joinUrl(endpoint.base, 'health'), { headers: authHeaders(config) }, scope);
    if (response.status !== 200) {
      const error = await runpodResponseError(response, scope, endpoint.id);
      const authenticated = error.code === 'provider_auth' ? { authenticated: false } : {};
      return { ok: false, reachable: true, ...authenticated, models: [], latencyMs: elapsed(), message: error.message };
    }
    const health = await readJson(response, Math.min(config.maxResponseBytes, 64 * 1024), scope, 'the health answer');
    return {
      ok: true,
      reachable: true,
      authenticated: true,
      models,
      latencyMs: elapsed(),
      message: `Connected to ${PROVIDER} endpoint ${endpoint.id}: ${describeHealth(health)}.`,
    };
  } catch (error) {
    if (signal.aborted) throw new AppError('cancelled', 'Cancelled.', { retryable: false });
    const appError = error instanceof AppError ? error : networkError(error, scope, 'while checking the endpoint');
    const reachable = appError.code !== 'provider_unavailable' && appError.code !== 'timeout';
    return { ok: false, reachable, models: [], latencyMs: elapsed(), message: appError.message };
  } finally {
    deadline.dispose();
  }
}
