import type { JobSummary } from '../../../shared/contract';
import { ProgressBar } from '../common/ProgressBar';
import { useApp } from '../store/context';
import { jobShape } from './queue-text';

/** A running job: what it makes, how far it is, and Skip (cancel it; the queue goes on). */
export function RunningRow({ job, providerName }: { job: JobSummary; providerName: string }) {
  const live = useApp((s) => s.jobs.progress[job.id]);
  // Ticks from before this window opened (a reload) are not replayed: the view's own progress stands in until the next.
  const tick = live ?? (job.progress === undefined ? undefined : { id: job.id, ...job.progress });
  const cancel = useApp((s) => s.cancel);
  return (
    <li className="queue-row running" data-id={job.id}>
      <div className="queue-row-main">
        <p className="queue-prompt" title={job.prompt}>
          {job.prompt}
        </p>
        <p className="queue-meta">
          {providerName} · {jobShape(job)}
        </p>
        <ProgressBar tick={tick} status={job.status} />
      </div>
      <button
        type="button"
        className="btn small"
        aria-label={`Skip: ${job.prompt}`}
        title="Cancel this job; the queue goes on"
        onClick={() => void cancel(job.id)}
      >
        Skip
      </button>
    </li>
  );
}
