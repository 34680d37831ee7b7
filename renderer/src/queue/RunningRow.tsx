import type { JobSummary } from '../../../shared/contract';
import { ProgressBar } from '../common/ProgressBar';
import { useApp } from '../store/context';
import { jobShape } from './queue-text';

/** A running job: what it makes, how far it is, and Skip (cancel it; the queue goes on). */
export function RunningRow({ job, providerName }: { job: JobSummary; providerName: string }) {
  const tick = useApp((s) => s.jobs.progress[job.id]);
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
