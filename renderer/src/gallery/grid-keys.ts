import type { KeyboardEvent } from 'react';
import { keyTargets, shownImage, stepImage, visibleImages } from '../curation/curation';
import { actionOfCommand } from '../iterate/iterate';
import type { RowModel } from './grid-rows';
import { moveVertical } from './grid-rows';
import { isTextField, keyToCommand, moveIndex, ratingOfKey } from '../common/keyboard';
import { selectedIds, selectedImages } from './selection';
import type { AppStore } from '../store/store';

export interface GridKeyContext {
  store: AppStore;
  rows: RowModel;
  columns: number;
  /** Scrolls the card into view and gives it the keyboard focus. */
  focusCard(id: string): void;
}

/**
 * The grid's keys: arrows move the focus (left and right through each image of each card), 0–5 rate, F favourites,
 * Delete trashes (one image of a batch alone; in the trash it asks to delete permanently), Enter opens, Ctrl/Cmd+A selects all.
 */
export function onGridKey(
  event: KeyboardEvent<HTMLDivElement>,
  { store, rows, columns, focusCard }: GridKeyContext,
): void {
  const command = keyToCommand(
    {
      key: event.key,
      ctrlKey: event.ctrlKey,
      metaKey: event.metaKey,
      shiftKey: event.shiftKey,
      altKey: event.altKey,
      inTextField: isTextField(event.target),
    },
    'grid',
  );
  if (command === null) return;
  // Enter on a card's own buttons (favorite, retry, show images) presses that button.
  if (command === 'open' && !(event.target instanceof HTMLElement && event.target.dataset.card !== undefined)) return;
  const state = store.getState();
  const current = state.focusedJobId ?? state.jobs.order[0] ?? null;
  if (current === null) return;
  const view = state.filters.view === 'trash' ? 'trash' : 'active';
  const chosen = () => selectedIds(state.selection, state.jobs.order);
  const targets = () => {
    const picked = chosen();
    return picked.includes(current) && picked.length > 0 ? picked : [current];
  };
  const moveTo = (id: string, imageId: string | null = null) => {
    state.focusImage(id, imageId);
    focusCard(id);
  };
  // Several cards selected: the images the selection stands for (a picture picked alone is only it); else the focused one.
  const imageTargets = () => {
    const picked = chosen();
    return picked.length > 1 && picked.includes(current)
      ? selectedImages(state.selection, state.jobs.order, state.jobs.byId, view)
      : keyTargets(state.jobs.byId, view, picked, { jobId: current, imageId: state.focusedImageId });
  };
  // The targets with their summaries, to tell whether a mark is to be set or cleared.
  const targetImages = () => {
    const picked = imageTargets();
    const images = picked.jobIds
      .flatMap((id) => state.jobs.byId[id]?.images ?? [])
      .filter((i) => picked.imageIds.includes(i.id));
    return { picked, images };
  };
  switch (command) {
    case 'prev':
    case 'next': {
      event.preventDefault();
      if (event.shiftKey) {
        const id =
          state.jobs.order[moveIndex(command, state.jobs.order.indexOf(current), columns, state.jobs.order.length)];
        if (id === undefined) return;
        state.click(id, { range: true, toggle: false });
        return moveTo(id);
      }
      // Left and right step through every image, card after card: culling visits each image once.
      const next = stepImage(
        state.jobs.order,
        state.jobs.byId,
        view,
        { jobId: current, imageId: state.focusedImageId },
        command === 'next' ? 1 : -1,
      );
      return moveTo(next.jobId, next.imageId);
    }
    case 'up':
    case 'down':
    case 'first':
    case 'last': {
      event.preventDefault();
      const from = state.jobs.order.indexOf(current);
      const index =
        command === 'up' || command === 'down'
          ? moveVertical(rows, from, command === 'down' ? 1 : -1)
          : moveIndex(command, from, columns, state.jobs.order.length);
      const id = state.jobs.order[index];
      if (id === undefined) return;
      if (event.shiftKey) state.click(id, { range: true, toggle: false });
      return moveTo(id);
    }
    case 'open': {
      // Enter on a focused card opens it; Space (the button's own click) selects.
      event.preventDefault();
      const job = state.jobs.byId[current];
      const index =
        job === undefined
          ? 0
          : Math.max(
              0,
              visibleImages(job, view).findIndex((i) => i.id === state.focusedImageId),
            );
      state.openViewer(current, index);
      return;
    }
    case 'rate': {
      event.preventDefault();
      const rating = ratingOfKey(event.key);
      const picked = imageTargets();
      if (rating === null || picked.imageIds.length === 0) return;
      void state.rate({ images: picked }, rating);
      // Culling: one image rated, on to the next (a selection stays where it is).
      if (state.autoAdvance && picked.imageIds.length === 1) {
        const next = stepImage(
          state.jobs.order,
          state.jobs.byId,
          view,
          { jobId: current, imageId: picked.imageIds[0]! },
          1,
        );
        moveTo(next.jobId, next.imageId);
      }
      return;
    }
    case 'favorite': {
      event.preventDefault();
      const { picked, images } = targetImages();
      void state.favoriteImages({ images: picked }, !images.every((i) => i.favorite === true));
      return;
    }
    case 'reject': {
      event.preventDefault();
      const { picked, images } = targetImages();
      if (images.length === 0) return;
      const reject = !images.every((i) => i.rejected === true);
      // A rejected image leaves its card: the focus moves on first (back at the end), as culling expects.
      if (reject && picked.imageIds.length === 1) {
        const at = { jobId: current, imageId: picked.imageIds[0]! };
        const next = stepImage(state.jobs.order, state.jobs.byId, view, at, 1);
        const to = next.imageId === at.imageId ? stepImage(state.jobs.order, state.jobs.byId, view, at, -1) : next;
        if (to.imageId !== at.imageId) moveTo(to.jobId, to.imageId);
      }
      void state.rejectImages({ images: picked }, reject);
      return;
    }
    case 'delete': {
      event.preventDefault();
      const ids = targets();
      const index = state.jobs.order.indexOf(current);
      const job = state.jobs.byId[current];
      const shown = job === undefined ? [] : visibleImages(job, view);
      // Inside the trash Delete means Delete permanently: asked with its count, never a silent restore.
      if (view === 'trash') {
        const picked = imageTargets();
        state.askPurge(ids, ids.length === 1 && shown.length > 1 ? picked.imageIds : []);
        return;
      }
      // One image of a batch: it alone goes; a whole card, or several, go as jobs.
      if (ids.length === 1 && job !== undefined && shown.length > 1) {
        const picked = imageTargets();
        const next = stepImage(
          state.jobs.order,
          state.jobs.byId,
          view,
          { jobId: current, imageId: picked.imageIds[0] ?? null },
          1,
        );
        void state.trashImages({ images: picked });
        state.focusImage(current, next.jobId === current ? next.imageId : null);
        return;
      }
      void state.trashJobs(ids);
      // Keep the focus where the person was.
      const nextId = state.jobs.order.filter((id) => !ids.includes(id))[
        Math.min(index, state.jobs.order.length - ids.length - 1)
      ];
      if (nextId !== undefined) moveTo(nextId);
      return;
    }
    case 'selectAll':
      event.preventDefault();
      state.selectAllShown();
      return;
    case 'retry': {
      const job = state.jobs.byId[current];
      if (job !== undefined && ['failed', 'cancelled', 'interrupted'].includes(job.status)) void state.retry(current);
      return;
    }
    case 'close':
      state.clearSelection();
      return;
    case 'useAsInput':
    case 'edit':
    case 'variations':
    case 'upscale':
    case 'addReference': {
      // The image in focus (a batch's first otherwise); Edit opens the viewer, where the brush lives.
      const job = state.jobs.byId[current];
      const image = job === undefined ? undefined : shownImage(job, view, state.focusedImageId);
      const action = actionOfCommand(command, event.shiftKey);
      if (image === undefined || action === null || job === undefined) return;
      event.preventDefault();
      if (action === 'edit' && state.supportOf('edit', current, image.id).enabled)
        state.openViewer(current, Math.max(0, visibleImages(job, view).indexOf(image)));
      void state.runAction(action, current, image.id).then((done) => {
        if (done && action === 'useAsInput') document.querySelector<HTMLElement>('textarea.prompt')?.focus();
      });
      return;
    }
    default:
      return;
  }
}
