import type { ImageSummary, JobSummary } from '../../../shared/contract';
import type { Api } from '../api';

/**
 * The thumbnail's URL, or null while the engine is still making it (an imported image): the card shows a calm
 * placeholder instead of asking for a file that is not there yet. The job's next announcement carries it.
 */
export function thumbSrc(api: Pick<Api, 'mediaUrl'>, image: Pick<ImageSummary, 'id' | 'thumbPending'>): string | null {
  return image.thumbPending === true ? null : api.mediaUrl('thumb', image.id);
}

/** What names a job on its card and to a screen reader: its prompt, else (an imported file without one) its file name. */
export function jobTitle(job: Pick<JobSummary, 'prompt' | 'path'>): string {
  if (job.prompt.trim() !== '') return job.prompt;
  const name = job.path?.split(/[\\/]/).pop();
  return name === undefined || name === '' ? 'Untitled image' : name;
}
