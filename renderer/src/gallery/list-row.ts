/** The compact list's measures and the text of one row: pure, so the rows stay cheap and the rules testable. */
import type { JobStatus, JobSummary } from '../../../shared/contract';
import { SOURCE_LABELS } from '../library/import/sources';

/** Every row is this tall, so the virtualiser never measures one. */
export const LIST_ROW_HEIGHT = 56;
/** The square box a row's thumbnail sits in at its true aspect. */
export const LIST_THUMB_BOX = 44;
/** A date header (Today, Yesterday, November 2026) above its section of rows. */
export const LIST_HEADER_HEIGHT = 36;

/** A picture of width × height shrunk to fit a box × box square, its aspect kept; unknown sizes fill the box. */
export function fitThumb(
  width: number,
  height: number,
  box: number = LIST_THUMB_BOX,
): { width: number; height: number } {
  if (!(width > 0) || !(height > 0) || !Number.isFinite(width) || !Number.isFinite(height))
    return { width: box, height: box };
  const scale = box / Math.max(width, height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

export function formatSize(width: number, height: number): string {
  return `${width} × ${height}`;
}

/** Where an image came from: the provider that ran it here (its name, else its id), or the tool an import came from. */
export function originLabel(
  job: Pick<JobSummary, 'source' | 'provider'>,
  providerName: string | undefined,
): { label: string; title: string } {
  if (job.source !== 'atelier')
    return { label: SOURCE_LABELS[job.source], title: `Imported from ${SOURCE_LABELS[job.source]}` };
  const label = providerName ?? job.provider;
  return { label, title: `Made with ${label}` };
}

const ENDED = new Set<JobStatus>(['failed', 'cancelled', 'interrupted']);
const FALLBACK: Partial<Record<JobStatus, string>> = {
  failed: 'The job failed without a message.',
  cancelled: 'Cancelled before it finished.',
  interrupted: 'Cut short when Atelier stopped; never re-sent.',
};

/** The one line a job that ended without its image shows under its prompt; null for any other job. */
export function endedMessage(job: Pick<JobSummary, 'status' | 'error'>): string | null {
  if (!ENDED.has(job.status)) return null;
  const message = job.error?.message.trim() ?? '';
  return message === '' ? FALLBACK[job.status]! : message.replace(/\s+/g, ' ');
}

let sameYear: Intl.DateTimeFormat | undefined;
let otherYear: Intl.DateTimeFormat | undefined;

/** "Dec 1, 14:05" within this year, "Mar 3, 2025" before it. Formatters made once: a scroll formats ~30 rows a frame. */
export function formatListDate(at: number, now: number): string {
  const date = new Date(at);
  if (date.getFullYear() === new Date(now).getFullYear()) {
    sameYear ??= new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    return sameYear.format(date);
  }
  otherYear ??= new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
  return otherYear.format(date);
}
