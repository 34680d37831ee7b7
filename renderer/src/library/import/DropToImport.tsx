import { useEffect, useState } from 'react';
import { draggingOut, endDragOut, sortDroppedFiles } from '../export/drag-out';
import { useApi, useAppStore } from '../../store/context';

export const BROWSER_DROP_NOTE =
  'In the browser, type the folder’s path: a page is never told where a dropped file lives.';

function carriesFiles(event: DragEvent): boolean {
  return event.dataTransfer !== null && Array.from(event.dataTransfer.types).includes('Files');
}

/**
 * Files or folders dropped anywhere on the window open the import dialog with their paths (desktop) or with a word
 * on typing them (browser). Drags that start in the window itself (a card dragged out) are not imports, nor are the
 * library's own originals dragged out through the OS and dropped back (main recognises them).
 */
export function DropToImport() {
  const api = useApi();
  const store = useAppStore();
  const [over, setOver] = useState(false);
  useEffect(() => {
    let inside = false;
    let depth = 0;
    // A cancelled dragstart is the desktop's OS drag-out taking over: no dragend will follow it.
    const onStart = (e: DragEvent) => (inside = !e.defaultPrevented);
    const onEnd = () => (inside = false);
    const onEnter = (e: DragEvent) => {
      if (inside || draggingOut() || !carriesFiles(e)) return;
      depth += 1;
      setOver(true);
    };
    const onLeave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const onOver = (e: DragEvent) => {
      if (inside || !carriesFiles(e)) return;
      // Without this the browser opens the file in place of the app.
      e.preventDefault();
      if (e.dataTransfer !== null) e.dataTransfer.dropEffect = 'copy';
    };
    const onDrop = (e: DragEvent) => {
      depth = 0;
      setOver(false);
      endDragOut();
      // A board took it (defaultPrevented): the board adds or imports what it carries.
      if (inside || e.defaultPrevented || !carriesFiles(e) || e.dataTransfer === null) return;
      e.preventDefault();
      const state = store.getState();
      void sortDroppedFiles(api, Array.from(e.dataTransfer.files)).then(({ imageIds, foreign }) => {
        if (foreign.length > 0) state.openImportDialog({ paths: foreign });
        else if (imageIds.length === 0)
          state.openImportDialog({
            note:
              api.host === 'browser'
                ? BROWSER_DROP_NOTE
                : 'Those items are not files on this computer: choose or type a folder.',
          });
      }, state.reportError);
    };
    // After an OS drag the next plain pointer move or press means it is over (no drag event says so).
    const onPointer = (e: PointerEvent) => {
      if (e.type === 'pointerdown' || e.buttons === 0) endDragOut();
    };
    window.addEventListener('dragstart', onStart);
    window.addEventListener('dragend', onEnd);
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('dragover', onOver);
    window.addEventListener('drop', onDrop);
    window.addEventListener('pointermove', onPointer);
    window.addEventListener('pointerdown', onPointer);
    return () => {
      window.removeEventListener('dragstart', onStart);
      window.removeEventListener('dragend', onEnd);
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('drop', onDrop);
      window.removeEventListener('pointermove', onPointer);
      window.removeEventListener('pointerdown', onPointer);
    };
  }, [api, store]);
  if (!over) return null;
  return (
    <div className="drop-overlay" aria-hidden="true">
      <p>Drop folders or images to import them</p>
    </div>
  );
}
