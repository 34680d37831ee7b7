import type { JobResult } from '../../shared/contract.js';
import type { ErrorBody } from '../../shared/errors.js';

const MAX_ERROR_MESSAGE_CHARS = 2_000;
const MAX_TEXT_CHARS = 4_000;
const MAX_TIMINGS = 32;

export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** The result as stored: whole when small, else a bounded summary that still validates as a JobResult. */
export function boundResult(result: JobResult, maxBytes: number): JobResult {
  const whole = JSON.stringify(result);
  if (byteLength(whole) <= maxBytes) return result;
  const timings: Record<string, number> = {};
  for (const [key, value] of Object.entries(result.timings).slice(0, MAX_TIMINGS)) {
    timings[clip(key, 64)] = value;
  }
  const bounded: JobResult = {
    timings,
    usage: { truncated: true, originalBytes: byteLength(whole) },
  };
  if (result.revisedPrompt !== undefined) bounded.revisedPrompt = clip(result.revisedPrompt, MAX_TEXT_CHARS);
  if (result.seed !== undefined) bounded.seed = result.seed;
  return bounded;
}

/** The error as stored: message clipped, details replaced by a marker when they would not fit. */
export function boundError(error: ErrorBody, maxBytes: number): ErrorBody {
  const bounded: ErrorBody = {
    code: error.code,
    message: clip(error.message, MAX_ERROR_MESSAGE_CHARS),
    retryable: error.retryable,
  };
  if (error.details !== undefined) {
    const details = JSON.stringify(error.details);
    bounded.details =
      byteLength(details) + byteLength(JSON.stringify(bounded)) <= maxBytes
        ? error.details
        : { truncated: true, originalBytes: byteLength(details) };
  }
  return bounded;
}
