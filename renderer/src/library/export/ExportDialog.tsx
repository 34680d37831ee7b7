import { useEffect, useRef, useState } from 'react';
import type { ChannelRequest, ExportProgressEvent, ExportSummary } from '../../../../shared/contract';
import { exportToPickedFolder } from './export-folder';
import { formatNumber } from '../../common/format';
import { isAbsolutePath } from '../import/imports-model';
import { useApi } from '../../store/context';
import { errorMessage } from '../../store/ui-slice';

export type ExportTarget = ChannelRequest<'export.start'>['target'];

/** Export a selection or every match: a ZIP (downloaded in the browser) or a folder, with an optional manifest. */
export function ExportDialog({ target, label, onClose }: { target: ExportTarget; label: string; onClose: () => void }) {
  const api = useApi();
  const ref = useRef<HTMLDialogElement>(null);
  const desktop = api.host === 'desktop';
  const [format, setFormat] = useState<'zip' | 'folder'>('zip');
  const [folder, setFolder] = useState('');
  const [manifest, setManifest] = useState<'none' | 'json' | 'csv'>('csv');
  const [error, setError] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const [run, setRun] = useState<ExportSummary | null>(null);
  const [progress, setProgress] = useState<ExportProgressEvent | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog !== null && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  const id = run?.id;
  useEffect(
    () => (id === undefined ? undefined : api.on('export.progress', (e) => e.id === id && setProgress(e))),
    [api, id],
  );

  // The browser downloads a ZIP or types a folder's path; the desktop app asks the OS for the folder (ZIP or files).
  const needsFolder = format === 'folder' && !desktop;
  const pickAndStart = async () => {
    setPicking(true);
    setError(null);
    try {
      const started = await exportToPickedFolder(api, { target, format, manifest });
      if (started === null) return;
      setRun(started);
      setProgress(started);
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setPicking(false);
    }
  };
  const start = async () => {
    if (desktop) return pickAndStart();
    const path = folder.trim();
    if (needsFolder && !isAbsolutePath(path))
      return setError('Type the full path of the folder to export into, e.g. /home/you/exports.');
    if (path !== '' && !isAbsolutePath(path))
      return setError(`“${path}” is not a full path: start it at the top, e.g. /home/you/exports.`);
    try {
      const { export: started } = await api.call('export.start', {
        target,
        format,
        manifest,
        ...(path === '' ? {} : { folder: path }),
      });
      setRun(started);
      setProgress(started);
    } catch (cause) {
      setError(errorMessage(cause));
    }
  };
  const cancel = async () => {
    if (run === null) return;
    try {
      setProgress((await api.call('export.cancel', { id: run.id })).export);
    } catch (cause) {
      setError(errorMessage(cause));
    }
  };

  const status = progress?.status;
  const working = status === 'running' || status === 'ready';
  return (
    <dialog
      ref={ref}
      className="dialog import-dialog"
      aria-labelledby="export-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (run === null) void start();
        }}
      >
        <h2 id="export-title">Export {label}</h2>
        <p className="muted small">
          The original files, byte for byte, with the settings they carry. Atelier only reads them.
        </p>
        {run === null ? (
          <>
            <fieldset className="import-mode">
              <legend className="field-label">As</legend>
              <label className="check">
                <input type="radio" name="export-format" checked={format === 'zip'} onChange={() => setFormat('zip')} />
                <span>
                  One ZIP file{' '}
                  <span className="muted small">
                    — {desktop ? 'saved in the folder you choose' : 'downloaded by your browser'}
                  </span>
                </span>
              </label>
              <label className="check">
                <input
                  type="radio"
                  name="export-format"
                  checked={format === 'folder'}
                  onChange={() => setFormat('folder')}
                />
                <span>
                  Files in a folder <span className="muted small">— a file already there is never replaced</span>
                </span>
              </label>
            </fieldset>
            {needsFolder ? (
              <label className="field">
                <span className="field-label">Folder</span>
                <input
                  type="text"
                  className="mono"
                  spellCheck={false}
                  placeholder="/home/you/exports"
                  value={folder}
                  onChange={(e) => {
                    setFolder(e.target.value);
                    setError(null);
                  }}
                  autoFocus
                />
              </label>
            ) : null}
            <label className="field">
              <span className="field-label">Settings list</span>
              <select value={manifest} onChange={(e) => setManifest(e.target.value as typeof manifest)}>
                <option value="csv">CSV (opens in a spreadsheet)</option>
                <option value="json">JSON</option>
                <option value="none">None</option>
              </select>
            </label>
          </>
        ) : (
          <ExportProgress run={run} progress={progress ?? run} />
        )}
        {error === null ? null : (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          {working ? (
            <button type="button" className="btn" onClick={() => void cancel()}>
              Cancel export
            </button>
          ) : null}
          <button type="button" className="btn" onClick={onClose}>
            {run === null ? 'Cancel' : 'Close'}
          </button>
          {run === null ? (
            <button type="submit" className="btn primary" disabled={picking}>
              {desktop ? 'Export to folder…' : 'Export'}
            </button>
          ) : null}
        </div>
      </form>
    </dialog>
  );
}

function ExportProgress({ run, progress }: { run: ExportSummary; progress: ExportProgressEvent }) {
  const { status, done, total, missing } = progress;
  return (
    <div className="export-progress" role="status" aria-live="polite">
      {status === 'ready' ? (
        <>
          <a className="btn primary" href={`/api/export/${run.id}.zip`} download>
            Download ZIP ({formatNumber(total)} image{total === 1 ? '' : 's'})
          </a>
          <p className="muted small">The ZIP is made as it downloads, straight from the originals.</p>
        </>
      ) : (
        <>
          <progress max={total} value={done} aria-label="Export progress" />
          <p className="small">
            {status === 'completed'
              ? 'Exported'
              : status === 'cancelled'
                ? 'Cancelled after'
                : status === 'failed'
                  ? 'Stopped after'
                  : 'Exporting'}{' '}
            {formatNumber(done)} of {formatNumber(total)}
            {missing > 0
              ? ` · ${formatNumber(missing)} original${missing === 1 ? '' : 's'} missing (listed in the settings list)`
              : ''}
          </p>
        </>
      )}
      {run.path !== undefined && status === 'completed' ? <p className="muted small mono">{run.path}</p> : null}
    </div>
  );
}
