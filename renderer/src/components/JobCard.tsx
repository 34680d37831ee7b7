import { memo, type MouseEvent } from 'react';
import { isTerminal } from '../lib/contract-constants';
import { useLatch } from '../lib/use-latch';
import { useApi, useApp, useAppStore } from '../store/context';
import { ProgressBar } from './ProgressBar';
import { StatusBadge } from './StatusBadge';

const RETRYABLE = new Set(['failed', 'cancelled', 'interrupted']);

/** One job in the grid; subscribes to its own entry only, so other cards never re-render for it. */
export const JobCard = memo(function JobCard({ id, width }: { id: string; width: number }) {
  const api = useApi();
  const job = useApp((s) => s.jobs.byId[id]);
  const selected = useApp((s) => s.selection.selected[id] === true);
  const focused = useApp((s) => s.focusedId === id);
  const tick = useApp((s) => s.jobs.progress[id]);
  const expanded = useApp((s) => s.expandedId === id);
  // Actions are read when used, not subscribed: a scroll mounts ~10 cards a frame and each subscription costs.
  const store = useAppStore();
  const { click, openViewer, setFavorite, retry, restore, toggleExpanded } = store.getState();
  // A card shown while the person is typing a search loads its thumbnail at the pause, and keeps it from then on.
  const imageAllowed = useLatch(!useApp((s) => s.searchTyping));
  if (job === undefined) return null;
  const cover = job.images[0];
  const trashed = job.trashedAt !== null;

  const onClick = (e: MouseEvent) => click(id, { range: e.shiftKey, toggle: e.ctrlKey || e.metaKey });

  return (
    <div className={`card${selected ? ' selected' : ''}`} style={{ width }} data-id={id}>
      <button
        type="button"
        className="card-open"
        aria-label={job.prompt}
        aria-pressed={selected}
        tabIndex={focused ? 0 : -1}
        data-card={id}
        onClick={onClick}
        onDoubleClick={() => openViewer(id)}
      >
        {cover === undefined ? (
          <div className={`thumb empty status-${job.status}`} aria-hidden="true">
            {isTerminal(job.status) ? <span>{job.status === 'succeeded' ? 'No image' : (job.error?.message ?? 'No image')}</span> : <ProgressBar tick={tick} status={job.status} />}
          </div>
        ) : (
          imageAllowed ? (
            <img className="thumb" src={api.mediaUrl('thumb', cover.id)} alt="" width={width} height={width} decoding="async" draggable={false} />
          ) : (
            <div className="thumb" aria-hidden="true" />
          )
        )}
        {job.images.length > 1 ? <span className="badge count-badge">{job.images.length}</span> : null}
      </button>
      <div className="card-meta">
        <p className="card-prompt" title={job.prompt}>
          {job.prompt}
        </p>
        <div className="card-actions">
          <StatusBadge status={job.status} title={job.error?.message} />
          {job.images.length > 1 ? (
            <button
              type="button"
              className="link expand"
              aria-expanded={expanded}
              aria-label={`${expanded ? 'Hide' : 'Show'} ${job.images.length} images: ${job.prompt}`}
              onClick={() => toggleExpanded(id)}
            >
              {expanded ? 'Hide' : `${job.images.length} images`}
            </button>
          ) : null}
          {RETRYABLE.has(job.status) && !trashed ? (
            <button type="button" className="link" onClick={() => void retry(id)} aria-label={`Retry: ${job.prompt}`}>
              Retry
            </button>
          ) : null}
          {trashed ? (
            <button type="button" className="link" onClick={() => void restore([id])} aria-label={`Restore: ${job.prompt}`}>
              Restore
            </button>
          ) : (
            <button
              type="button"
              className={job.favorite ? 'star on' : 'star'}
              aria-label={job.favorite ? `Unfavorite: ${job.prompt}` : `Favorite: ${job.prompt}`}
              aria-pressed={job.favorite}
              onClick={() => void setFavorite([id], !job.favorite)}
            >
              {job.favorite ? '★' : '☆'}
            </button>
          )}
        </div>
      </div>
    </div>
  );
});
