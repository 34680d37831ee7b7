import { memo, type MouseEvent } from 'react';
import { isTerminal } from '../lib/contract-constants';
import { clampWords } from '../lib/failure-notice';
import { formatStatus } from '../lib/format';
import { SOURCE_BADGES, SOURCE_LABELS } from '../lib/sources';
import { jobTitle, thumbSrc } from '../lib/thumbs';
import { useLatch } from '../lib/use-latch';
import { useApi, useApp, useAppStore } from '../store/context';
import { ProgressBar } from './ProgressBar';
import { StatusBadge } from './StatusBadge';

const RETRYABLE = new Set(['failed', 'cancelled', 'interrupted']);

/** Characters of a message that fit a square tile of this width at 12 px, cut at a word, the rest in the tooltip. */
function messageBudget(width: number, linked: boolean): number {
  const inner = Math.max(40, width - 28);
  const lines = Math.max(2, Math.floor((inner - (linked ? 26 : 0)) / 16));
  return Math.floor((inner / 7) * lines * 0.85);
}

/** "Retried as …" on the old job, "Retry of …" on the new: each brings the other before the person. */
function RetryLink({ other, kind, prompt }: { other: string; kind: 'as' | 'of'; prompt: string }) {
  const status = useApp((s) => s.jobs.byId[other]?.status);
  const revealJob = useApp((s) => s.revealJob);
  const text = kind === 'as' ? 'Retried as new job ›' : '‹ Retry of earlier job';
  const what = kind === 'as' ? 'the retry' : 'the job this retried';
  return (
    <button
      type="button"
      className={`retry-link ${kind}`}
      title={status === undefined ? `Show ${what}` : `Show ${what} (${formatStatus(status).toLowerCase()})`}
      aria-label={`${kind === 'as' ? 'Retried as' : 'Retry of'}: show ${what} of ${prompt}`}
      onClick={() => void revealJob(other)}
    >
      {text}
    </button>
  );
}

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
  const coverSrc = cover === undefined ? null : thumbSrc(api, cover);
  const title = jobTitle(job);
  const trashed = job.trashedAt !== null;

  const linked = job.retriedAs !== undefined || job.retryOf !== undefined;
  const message = job.status === 'succeeded' ? 'No image' : (job.error?.message ?? 'No image');

  const onClick = (e: MouseEvent) => click(id, { range: e.shiftKey, toggle: e.ctrlKey || e.metaKey });

  return (
    <div className={`card${selected ? ' selected' : ''}${linked ? ' linked' : ''}`} style={{ width }} data-id={id}>
      <button
        type="button"
        className="card-open"
        aria-label={title}
        aria-pressed={selected}
        tabIndex={focused ? 0 : -1}
        data-card={id}
        onClick={onClick}
        onDoubleClick={() => openViewer(id)}
      >
        {cover === undefined ? (
          <div className={`thumb empty status-${job.status}`} aria-hidden="true">
            {isTerminal(job.status) ? (
              <span className="tile-message" title={message} data-full={message}>
                {clampWords(message, messageBudget(width, linked))}
              </span>
            ) : (
              <ProgressBar tick={tick} status={job.status} />
            )}
          </div>
        ) : coverSrc !== null && imageAllowed ? (
          <img key={coverSrc} className="thumb" src={coverSrc} alt="" width={width} height={width} decoding="async" draggable={false} />
        ) : (
          <div className={coverSrc === null ? 'thumb pending' : 'thumb'} aria-hidden="true" />
        )}
        {job.source !== 'atelier' ? (
          <span className="badge source-badge" title={`Imported from ${SOURCE_LABELS[job.source]}`}>
            {SOURCE_BADGES[job.source]}
          </span>
        ) : null}
        {job.images.length > 1 ? <span className="badge count-badge">{job.images.length}</span> : null}
      </button>
      {job.retriedAs !== undefined ? <RetryLink other={job.retriedAs} kind="as" prompt={job.prompt} /> : null}
      {job.retryOf !== undefined && job.retriedAs === undefined ? <RetryLink other={job.retryOf} kind="of" prompt={job.prompt} /> : null}
      <div className="card-meta">
        <p className={job.prompt.trim() === '' ? 'card-prompt muted' : 'card-prompt'} title={title}>
          {title}
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
            <button type="button" className="link" onClick={() => void retry(id)} aria-label={`Retry: ${title}`}>
              Retry
            </button>
          ) : null}
          {trashed ? (
            <button type="button" className="link" onClick={() => void restore([id])} aria-label={`Restore: ${title}`}>
              Restore
            </button>
          ) : (
            <button
              type="button"
              className={job.favorite ? 'star on' : 'star'}
              aria-label={job.favorite ? `Unfavorite: ${title}` : `Favorite: ${title}`}
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
