import type { Events, JobStatus } from '../../shared/contract.js';

export interface Indicator {
  /** For setProgressBar: -1 hides it, 0..1 fills it, 2 is indeterminate (Electron's convention). */
  progress: number;
  running: number;
}

export interface Finished {
  id: string;
  status: JobStatus;
  prompt: string;
  images: number;
}

/**
 * Follows job events to drive the taskbar/dock progress bar and to notice jobs that finish. Pure: main.ts feeds it
 * events and turns its answers into setProgressBar and Notification calls.
 */
export class JobIndicators {
  private readonly running = new Map<string, number | undefined>();

  changed(payload: Events['jobs.changed']): Finished | null {
    const { job } = payload;
    const wasRunning = this.running.has(job.id);
    if (job.status === 'running') {
      this.running.set(job.id, job.progress?.fraction ?? this.running.get(job.id));
      return null;
    }
    this.running.delete(job.id);
    if (!wasRunning || (job.status !== 'succeeded' && job.status !== 'failed')) return null;
    return { id: job.id, status: job.status, prompt: job.prompt, images: job.images.length };
  }

  progress(payload: Events['jobs.progress']): void {
    if (this.running.has(payload.id)) this.running.set(payload.id, payload.fraction);
  }

  removed(payload: Events['jobs.removed']): void {
    for (const id of payload.ids) this.running.delete(id);
  }

  current(): Indicator {
    const fractions = [...this.running.values()];
    if (fractions.length === 0) return { progress: -1, running: 0 };
    if (fractions.some((f) => f === undefined)) return { progress: 2, running: fractions.length };
    const sum = fractions.reduce<number>((total, f) => total + (f ?? 0), 0);
    return { progress: Math.min(1, sum / fractions.length), running: fractions.length };
  }
}

/** The notification text for a finished job: short, the prompt's start, never more than a line. */
export function notificationFor(finished: Finished): { title: string; body: string } {
  const prompt = finished.prompt.length > 80 ? `${finished.prompt.slice(0, 79)}…` : finished.prompt;
  if (finished.status === 'succeeded') {
    const count = finished.images === 1 ? '1 image' : `${finished.images} images`;
    return { title: `Done: ${count}`, body: prompt };
  }
  return { title: 'A generation failed', body: prompt };
}
