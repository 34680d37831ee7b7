import { memo, type DragEvent, type MouseEvent } from 'react';
import { isCompactCard } from './card-aspect';
import { isTerminal } from '../common/contract-constants';
import { shownImage, visibleImages } from '../curation/curation';
import { startImageDrag } from '../library/export/drag-out';
import { clampWords } from '../live/failure-notice';
import { formatStatus } from '../common/format';
import { SOURCE_BADGES, SOURCE_LABELS } from '../library/import/sources';
import { jobTitle, thumbSrc } from '../common/thumbs';
import { useLatch } from '../common/use-latch';
import { useApi, useApp, useAppStore } from '../store/context';
import { LiveCancel } from '../live/LiveCancel';
import { LivePreview } from '../live/LivePreview';
import { LiveThumb, liveStatusId } from '../live/LiveThumb';
import { StatusBadge } from '../common/StatusBadge';
import { CurationBadges, isRejected } from '../curation/CurationBadges';
import { TrashCardMenu } from '../curation/TrashCardMenu';
import { ImageMenu } from '../iterate/ImageMenu';
import { BatchMosaic, tileIndexOf } from './BatchMosaic';
import { draggedImages } from './selection';
import './card.css';

const RETRYABLE = new Set(['failed', 'cancelled', 'interrupted']);

/** Characters of a message that fit one line of a compact card this wide at 12 px, cut at a word; the rest in the tooltip. */
function messageBudget(width: number): number {
  return Math.max(6, Math.floor((width - 20) / 7.5));
}

const STATUS_ICONS: Partial<Record<string, string>> = { failed: '⚠', cancelled: '⊘', interrupted: '⏸', succeeded: '∅' };

/** Thumbnails are this long on their long edge; a card drawn larger asks for the original so it stays sharp. */
const THUMB_EDGE = 384;
/** Below this width a card's caption wraps its controls and drops its badges, so none reaches over a neighbour. */
const NARROW_CARD = 170;

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
      // The name starts with the words shown (axe: label-content-name-mismatch), the arrow aside.
      aria-label={`${kind === 'as' ? 'Retried as new job' : 'Retry of earlier job'}: show ${what} of ${prompt}`}
      onClick={() => void revealJob(other)}
    >
      {text}
    </button>
  );
}

/** One job in the grid; subscribes to its own entry only, so other cards never re-render for it. */
export const JobCard = memo(function JobCard({ id, width, height }: { id: string; width: number; height: number }) {
  const api = useApi();
  const job = useApp((s) => s.jobs.byId[id]);
  const selected = useApp((s) => s.selection.selected[id] === true);
  // The pictures picked alone when the card is not selected whole.
  const picked = useApp((s) => s.selection.images[id] ?? null);
  const focused = useApp((s) => s.focusedJobId === id);
  const expanded = useApp((s) => s.expandedId === id);
  const focusedImageId = useApp((s) => (s.focusedJobId === id ? s.focusedImageId : null));
  const view = useApp((s) => (s.filters.view === 'trash' ? 'trash' : 'active'));
  // Actions are read when used, not subscribed: a scroll mounts ~10 cards a frame and each subscription costs.
  const store = useAppStore();
  const { click, openViewer, retry, restoreJobs, restoreFromTrash, askPurge, toggleExpanded } = store.getState();
  // A card shown while the person is typing a search loads its thumbnail at the pause, and keeps it from then on.
  const imageAllowed = useLatch(!useApp((s) => s.searchTyping));
  if (job === undefined) return null;
  // Curation is per image: the card shows the image in focus (its first otherwise), and that image's rating.
  const images = visibleImages(job, view);
  const cover = shownImage(job, view, focusedImageId);
  const coverIndex = cover === undefined ? -1 : images.indexOf(cover);
  const sharp = Math.max(width, height) * (globalThis.devicePixelRatio || 1) > THUMB_EDGE * 1.25;
  const coverSrc =
    cover === undefined
      ? null
      : sharp && cover.thumbPending !== true
        ? api.mediaUrl('image', cover.id)
        : thumbSrc(api, cover);
  const compact = isCompactCard(job, view);
  const terminal = isTerminal(job.status);
  // Every picture of a batch in view; a running batch keeps room for those still coming.
  const places = terminal ? images.length : Math.max(images.length, job.count ?? 1);
  const batch = !compact && images.length > 0 && places > 1;
  const narrow = width < NARROW_CARD;
  const title = jobTitle(job);
  // In the trash view every card is trashed, a job trashed whole or images trashed one by one from it.
  const trashed = job.trashedAt !== null || view === 'trash';

  const linked = job.retriedAs !== undefined || job.retryOf !== undefined;
  const message = job.status === 'succeeded' ? 'No image' : (job.error?.message ?? 'No image');

  // A click on one picture of a batch puts the focus on that picture; a double click opens the viewer on it.
  const onClick = (e: MouseEvent) => {
    const tile = tileIndexOf(e.target);
    const image = tile === null ? undefined : images[tile];
    const toggle = e.ctrlKey || e.metaKey;
    // Ctrl/Cmd on one picture of a batch picks that picture alone (gallery/selection.ts); a plain click, the card whole.
    click(id, { range: e.shiftKey, toggle }, toggle ? image?.id : undefined);
    if (image !== undefined) store.getState().focusImage(id, image.id);
  };
  const onDoubleClick = (e: MouseEvent) => {
    const tile = tileIndexOf(e.target);
    openViewer(id, tile !== null && tile < images.length ? tile : Math.max(0, coverIndex));
  };
  const faceId = `card-face-${id}`;
  const onDragStart = (e: DragEvent) => {
    const state = store.getState();
    // A selected card carries the images the selection counts (a picture picked alone is only it).
    const imageIds = draggedImages(state.selection, state.jobs.order, state.jobs.byId, view, id);
    startImageDrag(e, api, imageIds, state.reportError);
  };
  const favoriteShown = () => {
    if (cover === undefined) return;
    void store.getState().favoriteImages({ images: { imageIds: [cover.id], jobIds: [id] } }, cover.favorite !== true);
  };

  return (
    <div
      className={`card${selected ? ' selected' : ''}${selected && picked !== null ? ' partial' : ''}${linked ? ' linked' : ''}${compact ? ' compact' : ''}${batch ? ' batch' : ''}${narrow ? ' narrow' : ''}${!batch && cover !== undefined && isRejected(cover) ? ' rejected' : ''}`}
      style={{ width, height }}
      data-id={id}
    >
      <button
        type="button"
        className="card-open"
        aria-label={title}
        aria-pressed={selected}
        aria-describedby={terminal ? (compact ? faceId : undefined) : liveStatusId(id)}
        tabIndex={focused ? 0 : -1}
        data-card={id}
        title={compact ? message : undefined}
        draggable={images.length > 0}
        onDragStart={onDragStart}
        onClick={onClick}
        onDoubleClick={onDoubleClick}
        // Whatever moved the keyboard here (a screen reader, a script), the keys act on this card, as ListRow's do.
        onFocus={() => store.getState().focusedJobId !== id && store.getState().setFocused(id)}
      >
        {/* First, so it is the same element before and after the job ends: the live picture hands over to the thumbnail. */}
        {compact || job.source !== 'atelier' ? null : <LivePreview id={id} width={width} height={height} />}
        {compact ? null : batch ? (
          <BatchMosaic
            api={api}
            images={images}
            count={places}
            width={width}
            height={height}
            focusedImageId={focusedImageId}
            picked={selected ? picked : null}
            imageAllowed={imageAllowed}
          />
        ) : cover === undefined ? (
          <LiveThumb id={id} width={width} />
        ) : coverSrc !== null && imageAllowed ? (
          <img
            key={coverSrc}
            className="thumb"
            src={coverSrc}
            alt=""
            width={width}
            height={height}
            decoding="async"
            draggable={false}
          />
        ) : (
          <div className={coverSrc === null ? 'thumb pending' : 'thumb'} aria-hidden="true" />
        )}
        {/* The single picture's marks, at rest: a batch's tiles carry their own. */}
        {cover === undefined || batch ? null : <CurationBadges image={cover} compact={narrow} decorative={!narrow} />}
        {selected ? (
          <span className="select-check" aria-hidden="true">
            ✓
          </span>
        ) : null}
      </button>
      {/* Text over the picture lies outside the button: inside, it would have to be part of the button's name. */}
      {compact || job.source !== 'atelier' || images.length > 1 ? (
        <div className="card-face" aria-hidden="true">
          {compact ? (
            <div id={faceId} className={`thumb empty status-${job.status}`}>
              <span className="tile-icon">{STATUS_ICONS[job.status]}</span>
              <span className="tile-status">{formatStatus(job.status)}</span>
              <span className="tile-message" title={message} data-full={message}>
                {clampWords(message, messageBudget(width))}
              </span>
            </div>
          ) : null}
          {job.source !== 'atelier' ? (
            <span className="badge source-badge" title={`Imported from ${SOURCE_LABELS[job.source]}`}>
              {SOURCE_BADGES[job.source]}
            </span>
          ) : null}
          {images.length > 1 ? (
            <span
              className="badge count-badge"
              title={`Image ${coverIndex + 1} of ${images.length}: ← → step through them`}
            >
              {focusedImageId === null ? images.length : `${coverIndex + 1}/${images.length}`}
            </span>
          ) : null}
        </div>
      ) : null}
      {!terminal ? <LiveCancel id={id} /> : null}
      {job.retriedAs !== undefined ? <RetryLink other={job.retriedAs} kind="as" prompt={job.prompt} /> : null}
      {job.retryOf !== undefined && job.retriedAs === undefined ? (
        <RetryLink other={job.retryOf} kind="of" prompt={job.prompt} />
      ) : null}
      {/* Prompt, curation and actions over the picture, shown on hover and focus: the grid is images first. */}
      <div className="card-meta">
        <p className={job.prompt.trim() === '' ? 'card-prompt muted' : 'card-prompt'} title={title}>
          {title}
        </p>
        <div className="card-actions">
          {compact || narrow ? null : <StatusBadge status={job.status} title={job.error?.message} />}
          {/* The focused picture's marks, said once: those at rest over the picture are for the eye. */}
          {cover === undefined || narrow ? null : <CurationBadges image={cover} />}
          {images.length > 1 ? (
            <button
              type="button"
              className="link expand"
              aria-expanded={expanded}
              aria-label={`${expanded ? 'Hide' : 'Show'} ${images.length} images: ${job.prompt}`}
              onClick={() => toggleExpanded(id)}
            >
              {expanded ? 'Hide' : `${images.length} images`}
            </button>
          ) : null}
          {RETRYABLE.has(job.status) && !trashed ? (
            <button type="button" className="link" onClick={() => void retry(id)} aria-label={`Retry: ${title}`}>
              Retry
            </button>
          ) : null}
          {cover !== undefined && !trashed && job.status === 'succeeded' ? (
            <ImageMenu jobId={id} imageId={cover.id} label={title} />
          ) : null}
          {trashed && view === 'trash' ? <TrashCardMenu jobId={id} label={title} /> : null}
          {trashed ? (
            <>
              <button
                type="button"
                className="link"
                onClick={() => void (view === 'trash' ? restoreFromTrash([id]) : restoreJobs([id]))}
                aria-label={`Restore: ${title}`}
              >
                Restore
              </button>
              {view === 'trash' ? (
                <button
                  type="button"
                  className="link danger"
                  onClick={() => askPurge([id])}
                  aria-label={`Delete permanently: ${title}`}
                  title="Delete permanently (Delete)"
                >
                  Delete…
                </button>
              ) : null}
            </>
          ) : (
            <button
              type="button"
              className={cover?.favorite ? 'star on' : 'star'}
              aria-label={cover?.favorite ? `Unfavorite: ${title}` : `Favorite: ${title}`}
              aria-pressed={cover?.favorite === true}
              disabled={cover === undefined}
              title={images.length > 1 ? `Favorite image ${coverIndex + 1} of ${images.length} (F)` : 'Favorite (F)'}
              onClick={favoriteShown}
            >
              {cover?.favorite ? '♥' : '♡'}
            </button>
          )}
        </div>
      </div>
    </div>
  );
});
