import { useEffect, useRef, useState } from 'react';
import type { LibraryLocation } from '../../../../shared/contract';
import { useApi, useApp } from '../../store/context';
import './library-location.css';

/**
 * At start, a remembered library folder that is not there (its drive not connected) is a question, never a fresh
 * empty library: wait for the drive, pick the folder where the library is now, or start a new one.
 */
export function LibraryUnavailable() {
  const api = useApi();
  const reportError = useApp((s) => s.reportError);
  const [location, setLocation] = useState<LibraryLocation | null>(null);
  const [picking, setPicking] = useState(false);
  const [path, setPath] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    api.call('library.location', {}).then(setLocation, () => undefined);
  }, [api]);
  const unavailable = location?.state === 'unavailable';
  useEffect(() => {
    const dialog = ref.current;
    if (unavailable && dialog !== null && !dialog.open) dialog.showModal();
  }, [unavailable]);
  const toasts = useApp((s) => s.toasts);
  const dismissToast = useApp((s) => s.dismissToast);
  // Every panel's first request failed on the missing folder: this dialog says it once, so their toasts go.
  useEffect(() => {
    if (!unavailable || location === null) return;
    for (const toast of toasts) if (toast.message.includes(location.dataDir)) dismissToast(toast.id);
  }, [unavailable, location, toasts, dismissToast]);
  if (!unavailable || location === null) return null;

  // Everything on screen was asked of a library that was not there: start the page again on the one now open.
  const opened = (next: LibraryLocation) => {
    if (next.state === 'ready') window.location.reload();
    else setNote(`${next.dataDir} is still not there.`);
  };
  const retry = () => api.call('library.retryLocation', {}).then(opened, reportError);
  const switchTo = (mode: 'open' | 'new', folder?: string) =>
    api.call('library.useLocation', folder === undefined ? { mode } : { mode, path: folder }).then(opened, reportError);
  const pick = async () => {
    if (api.host !== 'desktop') {
      setPicking(true);
      return;
    }
    const { path: chosen } = await api.call('desktop.pickFolder', {});
    if (chosen !== null) await switchTo('open', chosen);
  };

  return (
    <dialog
      ref={ref}
      className="dialog library-unavailable"
      aria-labelledby="unavailable-title"
      onCancel={(e) => e.preventDefault()}
    >
      <h2 id="unavailable-title">Your library is not there</h2>
      <div className="dialog-body">
        <p>
          Atelier keeps your library in <span className="mono">{location.dataDir}</span>, but that folder is missing or
          empty. Is its drive connected?
        </p>
        <p className="muted">Nothing was created or changed there.</p>
        {note === null ? null : <p role="status">{note}</p>}
        {picking ? (
          <form
            className="location-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (path.trim() !== '') void switchTo('open', path.trim());
            }}
          >
            <label>
              <span>The folder your library is in now (it holds atelier.db)</span>
              <input type="text" className="mono" value={path} onChange={(e) => setPath(e.target.value)} autoFocus />
            </label>
            <button type="submit" className="btn" disabled={path.trim() === ''}>
              Open this library
            </button>
          </form>
        ) : null}
      </div>
      <div className="dialog-actions unavailable-actions">
        <button type="button" className="btn primary" onClick={() => void retry()} autoFocus>
          Wait — try again
        </button>
        <button type="button" className="btn" onClick={() => void pick().catch(reportError)}>
          Pick another folder…
        </button>
        <button type="button" className="btn" onClick={() => void switchTo('new')} title={location.defaultDir}>
          Start a new library here
        </button>
      </div>
      <p className="muted small">
        A new library starts in <span className="mono">{location.defaultDir}</span>; the one on the drive stays as it
        is.
      </p>
    </dialog>
  );
}
