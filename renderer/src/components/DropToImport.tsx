import { useEffect, useState } from 'react';
import { useApi, useAppStore } from '../store/context';

export const BROWSER_DROP_NOTE = 'In the browser, type the folder’s path: a page is never told where a dropped file lives.';

function carriesFiles(event: DragEvent): boolean {
  return event.dataTransfer !== null && Array.from(event.dataTransfer.types).includes('Files');
}

/**
 * Files or folders dropped anywhere on the window open the import dialog with their paths (desktop) or with a word
 * on typing them (browser). Drags that start in the window itself (a card dragged out) are not imports.
 */
export function DropToImport() {
  const api = useApi();
  const store = useAppStore();
  const [over, setOver] = useState(false);
  useEffect(() => {
    let inside = false;
    let depth = 0;
    const onStart = () => (inside = true);
    const onEnd = () => (inside = false);
    const onEnter = (e: DragEvent) => {
      if (inside || !carriesFiles(e)) return;
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
      if (inside || !carriesFiles(e) || e.dataTransfer === null) return;
      e.preventDefault();
      const paths = api.pathsForFiles(Array.from(e.dataTransfer.files));
      const state = store.getState();
      if (paths.length > 0) state.openImportDialog({ paths });
      else state.openImportDialog({ note: api.host === 'browser' ? BROWSER_DROP_NOTE : 'Those items are not files on this computer: choose or type a folder.' });
    };
    window.addEventListener('dragstart', onStart);
    window.addEventListener('dragend', onEnd);
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('dragover', onOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragstart', onStart);
      window.removeEventListener('dragend', onEnd);
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('drop', onDrop);
    };
  }, [api, store]);
  if (!over) return null;
  return (
    <div className="drop-overlay" aria-hidden="true">
      <p>Drop folders or images to import them</p>
    </div>
  );
}
