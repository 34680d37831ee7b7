import { useCallback, useEffect, useRef, useState } from 'react';
import type { JobDetail } from '../../../shared/contract';
import { visibleImages } from '../curation/curation';
import { dragOut } from '../library/export/drag-out';
import { actionOfCommand } from '../iterate/iterate';
import { isTextField, keyToCommand, ratingOfKey } from '../common/keyboard';
import { openCheatSheet } from '../app/CheatSheet';
import { jobTitle, thumbSrc } from '../common/thumbs';
import { useApi, useApp, useAppStore } from '../store/context';
import { DetailsPanel } from './DetailsPanel';
import { focusComposerPrompt } from '../iterate/ImageActions';
import { MaskBrush } from '../iterate/MaskBrush';
import { ProgressBar } from '../common/ProgressBar';
import { ZoomPane, type ZoomControls } from './ZoomPane';
import { Filmstrip } from './Filmstrip';
import { MarkFeedback, type ShownMark } from './MarkFeedback';
import { feedbackOf, type Mark } from './mark-feedback';
import './viewer.css';

const DETAILS_KEY = 'atelier.viewer.details';

/** The full image with prev/next through the job's images and then the grid, zoom, and the details beside it. */
export function Viewer() {
  const api = useApi();
  const store = useAppStore();
  const id = useApp((s) => s.viewerId)!;
  const job = useApp((s) => s.jobs.byId[id]);
  const tick = useApp((s) => s.jobs.progress[id]);
  const getDetail = useApp((s) => s.getDetail);
  const [detail, setDetail] = useState<JobDetail | null>(null);
  const [imageIndex, setImageIndex] = useState(() => store.getState().viewerImage);
  const zoom = useRef<ZoomControls>(null);
  const [detailsShown, setDetailsShown] = useState(() => localStorage.getItem(DETAILS_KEY) !== 'hidden');
  const toggleDetails = () =>
    setDetailsShown((shown) => {
      localStorage.setItem(DETAILS_KEY, shown ? 'hidden' : 'shown');
      return !shown;
    });
  const editing = useApp((s) => s.editing);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const updatedAt = job?.updatedAt;
  const view = useApp((s) => (s.filters.view === 'trash' ? 'trash' : 'active'));
  // The images the card shows: one the person trashed leaves the viewer as it leaves the card.
  // Images rejected while on screen stay in the viewer's list (marked), so X again clears the reject.
  const [keptRejects, setKeptRejects] = useState<ReadonlySet<string>>(() => new Set());
  const images = job === undefined ? [] : visibleImages(job, view, keptRejects);
  const [shownMark, setShownMark] = useState<ShownMark | null>(null);
  const [spoken, setSpoken] = useState('');
  // The sign remembers the image it marks: after Next-after-rating it stays over the next one, and says so.
  const showMark = (mark: Mark) => {
    const of = image === undefined ? undefined : { id: image.id, thumb: thumbSrc(api, image) };
    setShownMark((was) => ({ seq: (was?.seq ?? 0) + 1, mark, ...(of === undefined ? {} : { of }) }));
    setSpoken(feedbackOf(mark).spoken);
  };
  const hideMark = useCallback(() => setShownMark(null), []);
  // Where the last Delete came from, so the sign's Undo brings the viewer back to it.
  const trashedFrom = useRef<{ jobId: string; index: number } | null>(null);
  // The job's place in the grid when opened: a job that leaves the grid (rejected whole) still has neighbours.
  const [placed, setPlaced] = useState(() => ({ id, at: store.getState().jobs.order.indexOf(id) }));
  if (placed.id !== id) setPlaced({ id, at: store.getState().jobs.order.indexOf(id) });

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog !== null && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      // A brush left open must not greet the next viewer.
      store.getState().closeEditor();
    };
  }, [store]);

  useEffect(() => {
    let live = true;
    void getDetail(id).then((d) => {
      if (live) setDetail(d);
    });
    return () => {
      live = false;
    };
  }, [getDetail, id, updatedAt]);

  // Another job in the viewer: its image is the one the store says was asked for (adjusted while rendering).
  const [shownId, setShownId] = useState(id);
  if (shownId !== id) {
    setShownId(id);
    setImageIndex(store.getState().viewerImage);
  }
  // An image restored or deleted permanently from the trash view leaves: the viewer stays on the last one left.
  if (images.length > 0 && imageIndex > images.length - 1) setImageIndex(images.length - 1);

  const step = (delta: 1 | -1, keep: ReadonlySet<string> = keptRejects) => {
    const state = store.getState();
    state.closeEditor();
    const current = state.jobs.byId[id];
    const next = imageIndex + delta;
    if (current !== undefined && next >= 0 && next < visibleImages(current, view, keep).length) {
      setImageIndex(next);
      return;
    }
    const order = state.jobs.order;
    const here = order.indexOf(id);
    // Gone from the grid (every image rejected): the job now after it sits at its old place.
    const neighbour =
      here !== -1 ? order[here + delta] : placed.at === -1 ? undefined : order[placed.at + (delta === 1 ? 0 : -1)];
    if (neighbour === undefined) return;
    setDetail(null);
    // Going back lands on the previous job's last image.
    const other = state.jobs.byId[neighbour];
    const count = other === undefined ? 1 : visibleImages(other, view, keep).length;
    state.openViewer(neighbour, delta === -1 ? Math.max(0, count - 1) : 0);
  };

  const close = () => {
    store.getState().closeEditor();
    store.getState().closeViewer();
    // Back to the card the person opened (or moved to).
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-card="${id}"]`)?.focus());
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    const command = keyToCommand(
      {
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        shiftKey: event.shiftKey,
        altKey: event.altKey,
        inTextField: isTextField(event.target),
      },
      'viewer',
    );
    const state = store.getState();
    // The mask brush owns the keys while it is open; Escape closes it, not the viewer.
    if (brushOn) {
      if (command === 'close') {
        event.preventDefault();
        state.closeEditor();
      }
      return;
    }
    const action = actionOfCommand(command, event.shiftKey);
    if (action !== null) {
      if (image === undefined) return;
      event.preventDefault();
      void state.runAction(action, id, image.id).then((done) => {
        if (done && action === 'useAsInput') {
          close();
          focusComposerPrompt();
        }
      });
      return;
    }
    switch (command) {
      case 'shortcuts':
        event.preventDefault();
        openCheatSheet();
        return;
      case 'close':
        event.preventDefault();
        close();
        return;
      case 'prev':
        event.preventDefault();
        step(-1);
        return;
      case 'next':
        event.preventDefault();
        step(1);
        return;
      case 'zoom':
        zoom.current?.toggle();
        return;
      case 'zoomIn':
      case 'zoomOut':
      case 'zoomFit':
      case 'zoomActual':
        event.preventDefault();
        zoom.current?.[
          ({ zoomIn: 'zoomIn', zoomOut: 'zoomOut', zoomFit: 'fit', zoomActual: 'actual' } as const)[command]
        ]();
        return;
      case 'details':
        event.preventDefault();
        toggleDetails();
        return;
      case 'favorite':
        if (image !== undefined) {
          void state.favoriteImages({ images: { imageIds: [image.id], jobIds: [id] } }, image.favorite !== true);
          showMark({ kind: 'favorite', on: image.favorite !== true });
        }
        return;
      case 'rate': {
        const rating = ratingOfKey(event.key);
        if (image === undefined || rating === null) return;
        event.preventDefault();
        void state.rate({ images: { imageIds: [image.id], jobIds: [id] } }, rating);
        showMark({ kind: 'rating', rating });
        if (state.autoAdvance) step(1);
        return;
      }
      case 'reject': {
        if (image === undefined || view === 'trash') return;
        event.preventDefault();
        const reject = image.rejected !== true;
        const kept = reject ? new Set(keptRejects).add(image.id) : keptRejects;
        setKeptRejects(kept);
        void state.rejectImages({ images: { imageIds: [image.id], jobIds: [id] } }, reject, { quiet: true });
        showMark({ kind: 'reject', on: reject });
        // Next after rating takes a reject as a mark too: on to the next image.
        if (reject && state.autoAdvance) step(1, kept);
        return;
      }
      case 'delete':
        event.preventDefault();
        if (view === 'trash') purgeShown();
        else {
          trashedFrom.current = { jobId: id, index: imageIndex };
          trashAndMove();
          showMark({ kind: 'trash' });
        }
        return;
      case 'undo': {
        const undo = [...state.toasts].reverse().find((t) => t.action?.label === 'Undo');
        if (undo?.action !== undefined) {
          event.preventDefault();
          undo.action.run();
          state.dismissToast(undo.id);
        }
        return;
      }
      case 'retry':
        if (job !== undefined && ['failed', 'cancelled', 'interrupted'].includes(job.status)) void state.retry(id);
        return;
      default:
        return;
    }
  };

  // Inside the trash: the image on screen alone (its whole job when it is the only one), never a silent restore.
  const shownOnly = () => (image !== undefined && images.length > 1 ? [image.id] : []);
  const purgeShown = () => store.getState().askPurge([id], shownOnly());
  const restoreAndMove = () => {
    const state = store.getState();
    void state.restoreFromTrash([id], shownOnly());
    if (images.length > 1) {
      setImageIndex(Math.min(imageIndex, images.length - 2));
      return;
    }
    const order = state.jobs.order;
    const index = order.indexOf(id);
    const neighbour = order[index + 1] ?? order[index - 1];
    if (neighbour === undefined) close();
    else state.openViewer(neighbour);
  };

  const trashAndMove = () => {
    const state = store.getState();
    // One image of a batch goes (or comes back) alone; the viewer stays on the batch.
    if (
      job !== undefined &&
      image !== undefined &&
      images.length > 1 &&
      (view === 'active' || job.trashedAt === null)
    ) {
      const target = { images: { imageIds: [image.id], jobIds: [id] } };
      void (view === 'trash' ? state.restoreImages(target) : state.trashImages(target));
      setImageIndex(Math.min(imageIndex, images.length - 2));
      return;
    }
    const order = state.jobs.order;
    const index = order.indexOf(id);
    const neighbour = order[index + 1] ?? order[index - 1];
    if (job?.trashedAt !== null && job !== undefined) void state.restoreJobs([id]);
    else void state.trashJobs([id]);
    if (neighbour === undefined) close();
    else state.openViewer(neighbour);
  };

  // The sign's Undo is the trash toast's own (Ctrl+Z runs the same), then back to the image it took away.
  const undoTrash = () => {
    const state = store.getState();
    const undo = [...state.toasts].reverse().find((t) => t.topic === 'trash' && t.action?.label === 'Undo');
    setShownMark(null);
    if (undo?.action === undefined) return;
    undo.action.run();
    state.dismissToast(undo.id);
    setSpoken('Restored from the Trash');
    const from = trashedFrom.current;
    if (from === null) return;
    if (from.jobId === id) setImageIndex(from.index);
    else state.openViewer(from.jobId, from.index);
  };

  const image = images[imageIndex];
  const desktop = api.host === 'desktop';
  const brushOn = image !== undefined && editing !== null && editing.jobId === id && editing.imageId === image.id;

  return (
    <dialog
      ref={dialogRef}
      className="viewer"
      aria-label={job === undefined ? 'Viewer' : `Viewer: ${jobTitle(job)}`}
      onKeyDown={onKeyDown}
      onCancel={(e) => {
        e.preventDefault();
        if (brushOn) store.getState().closeEditor();
        else close();
      }}
    >
      <div className="viewer-stage">
        <div className="viewer-toolbar">
          <button type="button" className="btn small" onClick={() => step(-1)} aria-label="Previous">
            ←
          </button>
          <button type="button" className="btn small" onClick={() => step(1)} aria-label="Next">
            →
          </button>
          {images.length > 1 ? (
            <span className="muted small">
              Image {imageIndex + 1} of {images.length}
            </span>
          ) : null}
          <span className="spacer" />
          <button
            type="button"
            className="btn small"
            aria-pressed={detailsShown}
            aria-keyshortcuts="Shift+I"
            title="Show or hide the details (Shift+I)"
            onClick={toggleDetails}
          >
            Details
          </button>
          <button type="button" className="btn small" onClick={close} aria-label="Close viewer">
            Close
          </button>
        </div>
        {image !== undefined && brushOn ? (
          <MaskBrush
            jobId={id}
            imageId={image.id}
            src={api.mediaUrl('image', image.id)}
            width={image.width}
            height={image.height}
            prompt={job?.prompt ?? ''}
          />
        ) : null}
        {/* Kept mounted under the brush, so closing it shows the image at once. */}
        <div className="viewer-image" style={brushOn ? { display: 'none' } : undefined}>
          {image !== undefined ? (
            <ZoomPane
              ref={zoom}
              src={api.mediaUrl('image', image.id)}
              alt={job === undefined ? '' : jobTitle(job)}
              width={image.width}
              height={image.height}
              onDragOut={desktop ? () => dragOut(api, [image.id], store.getState().reportError) : undefined}
            />
          ) : tick?.previewImageId !== undefined ? (
            <img src={api.mediaUrl('preview', tick.previewImageId)} alt="Partial preview" />
          ) : job !== undefined && (job.status === 'queued' || job.status === 'running') ? (
            <div className="viewer-pending">
              <ProgressBar tick={tick} status={job.status} />
            </div>
          ) : (
            <p className="muted">{job?.error?.message ?? 'This job has no image.'}</p>
          )}
          <MarkFeedback
            shown={shownMark}
            currentImageId={image?.id}
            spoken={spoken}
            onUndo={undoTrash}
            onDone={hideMark}
          />
        </div>
        {detailsShown ? (
          <Filmstrip
            jobId={id}
            index={imageIndex}
            place={placed.at}
            view={view}
            keep={keptRejects}
            onPick={(jobId, index) => {
              store.getState().closeEditor();
              if (jobId === id) setImageIndex(index);
              else {
                setDetail(null);
                store.getState().openViewer(jobId, index);
              }
            }}
          />
        ) : null}
      </div>
      {detailsShown ? (
        <DetailsPanel
          id={id}
          detail={detail}
          imageId={image?.id}
          inTrash={view === 'trash'}
          onTrash={view === 'trash' ? purgeShown : trashAndMove}
          onRestore={restoreAndMove}
          onClose={close}
        />
      ) : null}
    </dialog>
  );
}
