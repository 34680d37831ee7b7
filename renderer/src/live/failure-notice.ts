import type { JobSummary } from '../../../shared/contract';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);
const PROMPT_CHARS = 48;

export interface Attention {
  /** The window or tab is hidden (minimised, another tab). */
  hidden: boolean;
  /** The viewer or a dialog covers the grid. */
  covered: boolean;
  /** The job's card is in the grid's visible area. */
  onScreen: boolean;
}

/** Whether this change is a job failing just now (not an old failure reloaded, starred or trashed). */
export function justFailed(previous: JobSummary | undefined, job: JobSummary): boolean {
  if (job.status !== 'failed') return false;
  if (previous !== undefined) return !TERMINAL.has(previous.status);
  return job.completedAt !== undefined && job.updatedAt === job.completedAt;
}

/** A failure the person may not have seen gets a toast: unless they are looking right at its card. */
export function needsFailureToast(attention: Attention): boolean {
  return attention.hidden || attention.covered || !attention.onScreen;
}

/** Cuts text at a word boundary to at most `max` characters, with an ellipsis when anything was cut. */
export function clampWords(text: string, max: number): string {
  const plain = text.replace(/\s+/g, ' ').trim();
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, Math.max(1, max - 1));
  const space = cut.lastIndexOf(' ');
  // One word longer than the whole budget: nothing to do but cut it.
  const kept = space > 0 ? cut.slice(0, space) : cut;
  return `${kept.replace(/[\s,;:.–—-]+$/, '')}…`;
}

export function failureToastMessage(job: JobSummary): string {
  return `“${clampWords(job.prompt, PROMPT_CHARS)}” failed: ${job.error?.message ?? 'no reason given.'}`;
}
