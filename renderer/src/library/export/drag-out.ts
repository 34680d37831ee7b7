/**
 * Dragging images out of the window (desktop): the OS drags their original files, to any app or back onto a board.
 * Electron starts that drag from main, so the page's own drag is cancelled and the in-app payload (DRAG_TYPE) is
 * gone: a drop back in the window carries files, which main recognises as its own drag (desktop.droppedImages).
 */
import type { Api } from '../../api';
import { MAX_DRAG_FILES } from '../../common/contract-constants';
import { setDraggedImages } from '../../curation/drag-images';

type DragApi = Pick<Api, 'host' | 'call'>;

interface DragStartLike {
  preventDefault(): void;
  readonly dataTransfer: Parameters<typeof setDraggedImages>[0];
}

// One OS drag at a time per window: set when it starts, cleared by the next drop or the next plain pointer move.
let outgoing = false;

/** Whether this window's own OS drag may be over it: its files are not an import. */
export function draggingOut(): boolean {
  return outgoing;
}

/** The OS drag has ended: a drop happened, or the pointer moves (or presses) with no drag under it. */
export function endDragOut(): void {
  outgoing = false;
}

/** The OS drag of these images' originals (the viewer's one, or a selection); a failure is reported, never thrown. */
export function dragOut(api: DragApi, imageIds: readonly string[], onError: (error: unknown) => void): void {
  outgoing = true;
  const input = imageIds.length === 1 ? { imageId: imageIds[0]! } : { imageIds: [...imageIds] };
  void api.call('desktop.startDrag', input).catch((error: unknown) => {
    outgoing = false;
    onError(error);
  });
}

/**
 * A card's drag: on desktop the OS drag of the originals; in the browser, or beyond what one OS drag carries, the
 * in-app drag onto boards (Export takes any number).
 */
export function startImageDrag(
  event: DragStartLike,
  api: DragApi,
  imageIds: readonly string[],
  onError: (error: unknown) => void,
): 'os' | 'in-app' {
  if (api.host === 'desktop' && imageIds.length > 0 && imageIds.length <= MAX_DRAG_FILES) {
    event.preventDefault();
    dragOut(api, imageIds, onError);
    return 'os';
  }
  setDraggedImages(event.dataTransfer, imageIds);
  return 'in-app';
}

/** Dropped files split into this window's own drag-out (as image ids) and files from elsewhere (as paths, to import). */
export async function sortDroppedFiles(
  api: Pick<Api, 'host' | 'call' | 'pathsForFiles'>,
  files: readonly File[],
): Promise<{ imageIds: string[]; foreign: string[] }> {
  const paths = api.pathsForFiles(files);
  // Our own drag never carries more than MAX_DRAG_FILES: a bigger drop is from elsewhere.
  if (api.host !== 'desktop' || paths.length === 0 || paths.length > MAX_DRAG_FILES)
    return { imageIds: [], foreign: paths };
  const { images } = await api.call('desktop.droppedImages', { paths });
  const own = new Set(images.map((i) => i.path));
  return { imageIds: images.map((i) => i.imageId), foreign: paths.filter((p) => !own.has(p)) };
}

/** Whether a drag over a board may be this window's own OS drag-out: files, while one is in flight. */
export function carriesOwnFiles(transfer: { readonly types: readonly string[] }): boolean {
  return outgoing && Array.from(transfer.types).includes('Files');
}
