import { AppError } from '../../../shared/errors.js';
import { readJson } from '../http/body.js';
import { type CallScope, redact } from '../http/errors.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import { comboOptions } from './upscalers.js';

/** The server's own sampler and scheduler combos (KSampler's sampler_name and scheduler in /object_info). */
export interface SamplerLists {
  samplers: string[];
  schedulers: string[];
}

/** GET /object_info/KSampler; undefined when the server (or a proxy) does not say, so nothing can be checked. */
export async function fetchSamplerLists(
  base: string,
  headers: Record<string, string>,
  scope: CallScope,
  maxBytes: number,
): Promise<SamplerLists | undefined> {
  const response = await send(joinUrl(base, 'object_info/KSampler'), { headers }, scope, 'while reading its samplers');
  if (response.status !== 200) {
    await response.body?.cancel();
    return undefined;
  }
  const json = await readJson(response, maxBytes, scope, 'the sampler list');
  const samplers = comboOptions(json, 'KSampler', 'sampler_name');
  const schedulers = comboOptions(json, 'KSampler', 'scheduler');
  return samplers.length === 0 || schedulers.length === 0 ? undefined : { samplers, schedulers };
}

/** Names shown in a message: the server's strings are untrusted, so the list is bounded and redacted. */
function listed(names: readonly string[], secrets: readonly string[]): string {
  const shown = names.slice(0, 60);
  return redact(
    shown.join(', ') + (names.length > shown.length ? `, and ${names.length - shown.length} more` : ''),
    secrets,
  );
}

/** Refuses a sampler or scheduler the server does not list, before the prompt (or any upload) goes out. */
export function checkSamplerChoice(
  choice: { sampler?: string; scheduler?: string },
  lists: SamplerLists,
  secrets: readonly string[],
): void {
  const { sampler, scheduler } = choice;
  if (sampler !== undefined && !lists.samplers.includes(sampler)) {
    throw new AppError(
      'invalid_request',
      `This ComfyUI server has no sampler "${sampler}". It has: ${listed(lists.samplers, secrets)}. Nothing was sent.`,
      {
        retryable: false,
        details: { field: 'sampler', phase: 'before_accept' },
      },
    );
  }
  if (scheduler !== undefined && !lists.schedulers.includes(scheduler)) {
    throw new AppError(
      'invalid_request',
      `This ComfyUI server has no scheduler "${scheduler}". It has: ${listed(lists.schedulers, secrets)}. Nothing ` +
        `was sent.`,
      {
        retryable: false,
        details: { field: 'scheduler', phase: 'before_accept' },
      },
    );
  }
}
