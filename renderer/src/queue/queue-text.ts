import type { QueueHold, QueueView } from '../../../shared/contract';

/** The top bar's words for the queue at rest: "3 running · 12 queued", "Paused · 12 queued", or "Queue" when idle. */
export function queueSummary(view: QueueView | null): string {
  if (view === null) return 'Queue';
  const parts = [
    view.control.paused ? 'Paused' : null,
    view.running.length > 0 ? `${view.running.length} running` : null,
    view.queuedTotal > 0 ? `${view.queuedTotal} queued` : null,
  ].filter((part): part is string => part !== null);
  return parts.length === 0 ? 'Queue' : parts.join(' · ');
}

/** Seconds until a hold lifts by itself, rounded up; null when it has no end or has already ended. */
export function secondsLeft(hold: QueueHold, now: number): number | null {
  if (hold.until === undefined || hold.until <= now) return null;
  return Math.ceil((hold.until - now) / 1000);
}

/** "12 s" or "2 min 5 s": a countdown short enough to read at a glance. */
export function formatCountdown(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/** "1024×1024 · 4 images": what a job makes, after its prompt. */
export function jobShape(job: { width: number; height: number; count: number }): string {
  return `${job.width}×${job.height}${job.count > 1 ? ` · ${job.count} images` : ''}`;
}

/** The question before cancelling what waits. */
export function cancelQuestion(count: number): string {
  return `Cancel ${count} queued job${count === 1 ? '' : 's'}?`;
}
