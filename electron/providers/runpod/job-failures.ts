import type { AppError } from '../../../shared/errors.js';
import { type CallScope, redact } from '../http/errors.js';
import { type Endpoint, isRecord } from './connection.js';
import { jobFailed } from './errors.js';

function clean(text: string, scope: CallScope): string {
  return redact(text.replace(/\s+/g, ' ').trim(), scope.secrets);
}

/** RunPod keeps a /run result 30 minutes; a job it no longer knows is gone for good. */
export function jobGone(scope: CallScope, jobId: string): AppError {
  return jobFailed(
    `${scope.provider} no longer knows job ${jobId}: its result expired (RunPod keeps it 30 minutes after the job ` +
      `ends) or the job was never stored. Run the job again.`,
    { remoteGone: true },
  );
}

/**
 * What a FAILED job said: worker-comfyui's `error` ("Workflow validation failed: • Node 4 …", ComfyUI's own words)
 * with its `output.details`, or runpod-python's JSON of a handler exception (`error_message`).
 */
export function failureText(json: Record<string, unknown>, scope: CallScope): string {
  let said = typeof json.error === 'string' ? json.error.slice(0, 4000) : '';
  if (/^\s*\{/.test(said)) {
    try {
      const inner: unknown = JSON.parse(said);
      if (isRecord(inner) && typeof inner.error_message === 'string') said = inner.error_message;
    } catch {
      // Not JSON: quote it as it is.
    }
  }
  const output = isRecord(json.output) ? json.output : {};
  const details = Array.isArray(output.details)
    ? output.details.filter((d): d is string => typeof d === 'string').slice(0, 5)
    : [];
  const parts = [said, ...details].map(joinLines).filter((p) => p !== '');
  return clean(parts.join(' — '), scope);
}

/** worker-comfyui lists node errors one per line as "• Node 4 (errors): …" under a heading ending in ":". */
function joinLines(text: string): string {
  let out = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^\s*•\s*/, '').trim();
    if (line === '') continue;
    out = out === '' ? line : out.endsWith(':') ? `${out} ${line}` : `${out}; ${line}`;
  }
  return out;
}

/** A job that ended FAILED, TIMED_OUT or CANCELLED on RunPod, in words (docs/hosted-protocols.md §2.2). */
export function failedError(
  json: Record<string, unknown>,
  status: string,
  job: { scope: CallScope; jobId: string; endpoint: Endpoint },
): AppError {
  const { scope, jobId, endpoint } = job;
  const p = scope.provider;
  if (status === 'FAILED') {
    const said = failureText(json, scope);
    return jobFailed(
      `${p}'s worker could not run the workflow${said === '' ? ' (FAILED, with no reason given).' : `: "${said}"`}`,
      { runpodStatus: status, ...(said === '' ? {} : { providerMessage: said }) },
    );
  }
  if (status === 'TIMED_OUT')
    return jobFailed(
      `${p} stopped job ${jobId} because it ran past the execution timeout (TIMED_OUT). Raise the timeout in ` +
        `settings or on endpoint ${endpoint.id}, or make the workflow lighter.`,
      { runpodStatus: status },
    );
  return jobFailed(`Job ${jobId} was cancelled on ${p} (from its console or another client), so it made no images.`, {
    runpodStatus: status,
  });
}
