import { memo } from 'react';
import { instanceLabel } from '../lib/composer-instances';
import { useApi, useApp } from '../store/context';
import { ProgressBar } from './ProgressBar';

/** One queued or running job; a progress tick re-renders only this item. */
const QueueItem = memo(function QueueItem({ id }: { id: string }) {
  const api = useApi();
  const job = useApp((s) => s.jobs.byId[id]);
  const tick = useApp((s) => s.jobs.progress[id]);
  const cancel = useApp((s) => s.cancel);
  const runsOn = useApp((s) => (job === undefined ? '' : instanceLabel(job, s.providers)));
  if (job === undefined) return null;
  const preview = tick?.previewImageId;
  return (
    <li className="queue-item" aria-label={`${job.status === 'queued' ? 'Queued' : 'Rendering'}: ${job.prompt}`}>
      <div className="queue-preview" aria-hidden="true">
        {preview === undefined ? <div className="skeleton" /> : <img src={api.mediaUrl('preview', preview)} alt="" />}
      </div>
      <div className="queue-body">
        <p className="queue-prompt" title={job.prompt}>
          {job.prompt}
        </p>
        <p className="muted small">
          <span className="queue-instance" title={job.instance === undefined ? 'The provider it asked for' : 'The server running it'}>
            {runsOn}
          </span>
          {job.model === undefined ? '' : ` · ${job.model}`} · {job.width}×{job.height} · {job.count} image{job.count === 1 ? '' : 's'}
        </p>
        <ProgressBar tick={tick} status={job.status} />
      </div>
      <button type="button" className="btn small" onClick={() => void cancel(id)} aria-label={`Cancel: ${job.prompt}`}>
        Cancel
      </button>
    </li>
  );
});

export function QueuePanel() {
  const liveIds = useApp((s) => s.jobs.liveIds);
  if (liveIds.length === 0) return null;
  return (
    <section className="queue" aria-label="Queue">
      <h2 className="section-title">
        Rendering <span className="count">{liveIds.length}</span>
      </h2>
      <ul>
        {liveIds.map((id) => (
          <QueueItem key={id} id={id} />
        ))}
      </ul>
    </section>
  );
}
