import { memo, useId, type DragEvent, type MouseEvent } from 'react';
import type { JobStatus } from '../../../shared/contract';
import { isTerminal } from '../common/contract-constants';
import { shownImage, visibleImages } from '../curation/curation';
import { setDraggedImages } from '../curation/drag-images';
import { formatPercent } from '../common/format';
import { endedMessage, fitThumb, formatListDate, formatSize, LIST_ROW_HEIGHT, originLabel } from './list-row';
import { draggedImages } from './selection';
import { jobTitle, thumbSrc } from '../common/thumbs';
import { useLatch } from '../common/use-latch';
import { useNow } from '../common/use-now';
import { useApi, useApp, useAppStore } from '../store/context';
import { StatusBadge } from '../common/StatusBadge';

const RETRYABLE = new Set(['failed', 'cancelled', 'interrupted']);
const STATUS_GLYPHS: Record<string, string> = { failed: '!', cancelled: '×', interrupted: '‖' };

/** A job without a picture yet (or ever): its progress as a ring, or the glyph of how it ended. */
function ThumbPlaceholder({ status, fraction }: { status: JobStatus; fraction: number | undefined }) {
  if (!isTerminal(status)) {
    return (
      <span
        className={fraction === undefined ? 'list-ring waiting' : 'list-ring'}
        style={{ ['--done' as string]: `${Math.round((fraction ?? 0) * 100)}%` }}
      />
    );
  }
  return <span className={`list-glyph status-${status}`}>{STATUS_GLYPHS[status] ?? '·'}</span>;
}

/** One job in the compact list; subscribes to its own entry only, so other rows never re-render for it. */
export const ListRow = memo(function ListRow({ id, top, lite }: { id: string; top: number; lite: boolean }) {
  const api = useApi();
  const metaId = useId();
  const job = useApp((s) => s.jobs.byId[id]);
  const selected = useApp((s) => s.selection.selected[id] === true);
  const focused = useApp((s) => s.focusedJobId === id);
  const tick = useApp((s) => s.jobs.progress[id]);
  const focusedImageId = useApp((s) => (s.focusedJobId === id ? s.focusedImageId : null));
  const view = useApp((s) => (s.filters.view === 'trash' ? 'trash' : 'active'));
  const providerName = useApp((s) =>
    job === undefined ? undefined : s.providers.find((p) => p.id === (job.instance ?? job.provider))?.name,
  );
  // Actions are read when used, not subscribed: a scroll mounts many rows a frame and each subscription costs.
  const store = useAppStore();
  // A row mounted during a fling or while the person types a search asks for its thumbnail once that settles.
  const typing = useApp((s) => s.searchTyping);
  const imageAllowed = useLatch(!lite && !typing);
  const now = useNow();
  if (job === undefined) return null;

  const images = visibleImages(job, view);
  const cover = shownImage(job, view, focusedImageId);
  const coverIndex = cover === undefined ? -1 : images.indexOf(cover);
  const coverSrc = cover === undefined ? null : thumbSrc(api, cover);
  const box = fitThumb(cover?.width ?? job.width, cover?.height ?? job.height);
  const title = jobTitle(job);
  const trashed = job.trashedAt !== null;
  const message = endedMessage(job);
  const origin = originLabel(job, providerName);
  const rating = cover?.rating ?? 0;
  // Only the focused row's own controls are in the tab order: the list is one Tab stop, then that row's buttons.
  const tabIndex = focused ? 0 : -1;

  const onClick = (e: MouseEvent) => store.getState().click(id, { range: e.shiftKey, toggle: e.ctrlKey || e.metaKey });
  const onDragStart = (e: DragEvent<HTMLButtonElement>) => {
    const state = store.getState();
    // The button is a clear layer over the row: the picture is what the hand carries.
    const picture = e.currentTarget.parentElement?.querySelector('.list-thumb img');
    if (picture instanceof HTMLImageElement)
      e.dataTransfer.setDragImage(picture, picture.width / 2, picture.height / 2);
    // A selected row carries the images the selection counts, as the selection bar does.
    setDraggedImages(e.dataTransfer, draggedImages(state.selection, state.jobs.order, state.jobs.byId, view, id));
  };
  const target = cover === undefined ? null : { images: { imageIds: [cover.id], jobIds: [id] } };

  return (
    <div
      className={`list-row${selected ? ' selected' : ''}`}
      role="listitem"
      style={{ transform: `translateY(${top}px)`, height: LIST_ROW_HEIGHT }}
      data-id={id}
    >
      {/* The row's one focusable surface, laid over it: the text beside it stays plain text its name and description read. */}
      <button
        type="button"
        className="list-open"
        aria-label={title}
        title={message === null ? title : `${title}\n${message}`}
        aria-describedby={message === null ? metaId : `${metaId}-m ${metaId}`}
        aria-pressed={selected}
        tabIndex={tabIndex}
        data-card={id}
        draggable={images.length > 0}
        onDragStart={onDragStart}
        onClick={onClick}
        // However the row got the keyboard (a screen reader's cursor too), the keys act on it.
        onFocus={() => store.getState().focusedJobId !== id && store.getState().setFocused(id)}
        onDoubleClick={() => store.getState().openViewer(id, Math.max(0, coverIndex))}
      />
      <span className="list-thumb" aria-hidden="true">
        {cover === undefined ? (
          <ThumbPlaceholder status={job.status} fraction={tick?.fraction} />
        ) : coverSrc !== null && imageAllowed ? (
          <img
            key={coverSrc}
            src={coverSrc}
            alt=""
            width={box.width}
            height={box.height}
            decoding="async"
            draggable={false}
          />
        ) : (
          <span className="list-thumb-pending" style={{ width: box.width, height: box.height }} />
        )}
        {selected ? <span className="list-check">✓</span> : null}
        {images.length > 1 ? <span className="list-count">{images.length}</span> : null}
      </span>
      <span className="list-text">
        <span className={job.prompt.trim() === '' ? 'list-prompt muted' : 'list-prompt'} title={title}>
          {title}
        </span>
        {message === null ? null : (
          <span className={`list-message status-${job.status}`} id={`${metaId}-m`} title={message}>
            {message}
          </span>
        )}
      </span>
      <span className="list-meta" id={metaId}>
        <span className={job.model === undefined ? 'list-model empty' : 'list-model'} title={job.model}>
          {job.model ?? '—'}
        </span>
        <span className="list-size">{formatSize(cover?.width ?? job.width, cover?.height ?? job.height)}</span>
        <span className="list-origin" title={origin.title}>
          {origin.label}
        </span>
        <time className="list-date" dateTime={new Date(job.createdAt).toISOString()}>
          {formatListDate(job.createdAt, now)}
        </time>
      </span>
      <span className="list-status">
        {job.status === 'running' && tick?.fraction !== undefined ? (
          <span className="badge status-running">{formatPercent(tick.fraction)}</span>
        ) : (
          <StatusBadge status={job.status} title={message ?? undefined} />
        )}
        {images.length > 1 ? (
          <span className="list-images" title={`Image ${coverIndex + 1} of ${images.length}: ← → step through them`}>
            {focusedImageId === null ? `${images.length} images` : `${coverIndex + 1} of ${images.length}`}
          </span>
        ) : null}
        {RETRYABLE.has(job.status) && !trashed ? (
          <button
            type="button"
            className="link"
            tabIndex={tabIndex}
            onClick={() => void store.getState().retry(id)}
            aria-label={`Retry: ${title}`}
          >
            Retry
          </button>
        ) : null}
      </span>
      <span className="list-rating" role="group" aria-label={`Rating: ${title}`}>
        {[1, 2, 3, 4, 5].map((n) => (
          <button
            key={n}
            type="button"
            className={n <= rating ? 'list-star on' : 'list-star'}
            aria-label={`${n} star${n === 1 ? '' : 's'}`}
            aria-pressed={rating === n}
            title={rating === n ? 'Click again to clear (0)' : `Rate ${n} (key ${n})`}
            tabIndex={tabIndex}
            disabled={target === null || trashed}
            onClick={() => target !== null && void store.getState().rate(target, rating === n ? 0 : n)}
          >
            ★
          </button>
        ))}
      </span>
      {trashed ? (
        <button
          type="button"
          className="link list-restore"
          tabIndex={tabIndex}
          onClick={() => void store.getState().restoreJobs([id])}
          aria-label={`Restore: ${title}`}
        >
          Restore
        </button>
      ) : (
        <button
          type="button"
          className={cover?.favorite ? 'list-fav on' : 'list-fav'}
          aria-label={cover?.favorite ? `Unfavorite: ${title}` : `Favorite: ${title}`}
          aria-pressed={cover?.favorite === true}
          title={images.length > 1 ? `Favorite image ${coverIndex + 1} of ${images.length} (F)` : 'Favorite (F)'}
          tabIndex={tabIndex}
          disabled={target === null}
          onClick={() => target !== null && void store.getState().favoriteImages(target, cover?.favorite !== true)}
        >
          {cover?.favorite ? '♥' : '♡'}
        </button>
      )}
    </div>
  );
});
