import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../store/ui-slice';
import { isAbsolutePath, parsePaths } from './imports-model';
import { useApi, useApp } from '../../store/context';

/** Where the person says what to import: typed paths (and, in the desktop app, the OS picker), link or copy, watch. */
export function ImportDialog() {
  const api = useApi();
  const prefill = useApp((s) => s.importDialog);
  const close = useApp((s) => s.closeImportDialog);
  const startImport = useApp((s) => s.startImport);
  const ref = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState('');
  const [mode, setMode] = useState<'link' | 'copy'>('link');
  const [watch, setWatch] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const desktop = api.host === 'desktop';

  useEffect(() => {
    const dialog = ref.current;
    if (dialog !== null && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const addPaths = (paths: readonly string[]) =>
    setText((current) => parsePaths([current, ...paths].join('\n')).join('\n'));
  // A drop (or the menu) while the dialog is open adds to what is typed, never replaces it (adjusted while rendering).
  const [prefilled, setPrefilled] = useState<typeof prefill>(null);
  if (prefilled !== prefill) {
    setPrefilled(prefill);
    if (prefill !== null && prefill.paths.length > 0) addPaths(prefill.paths);
  }

  const choose = async () => {
    try {
      const { paths } = await api.call('desktop.pickImportPaths', {});
      addPaths(paths);
    } catch (cause) {
      setError(errorMessage(cause));
    }
  };

  const submit = async () => {
    const paths = parsePaths(text);
    if (paths.length === 0) return setError('Type the full path of a folder or file, one a line.');
    const relative = paths.find((p) => !isAbsolutePath(p));
    if (relative !== undefined)
      return setError(`“${relative}” is not a full path: start it at the top, e.g. /home/you/outputs.`);
    setBusy(true);
    const failure = await startImport({ paths, mode, watch });
    setBusy(false);
    if (failure !== null) setError(errorMessage(failure));
  };

  return (
    <dialog
      ref={ref}
      className="dialog import-dialog"
      aria-labelledby="import-title"
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        onKeyDown={(e) => {
          // Enter makes a new line in the paths; Ctrl/Cmd+Enter imports, as it generates in the composer.
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !busy) {
            e.preventDefault();
            void submit();
          }
        }}
      >
        <h2 id="import-title">Import images</h2>
        <p className="muted small">
          Images from AUTOMATIC1111, ComfyUI, InvokeAI, Fooocus, NovelAI and others, with the settings they carry.
          Folders are read with everything inside them.
        </p>
        {prefill?.note ? (
          <p className="import-note" role="note">
            {prefill.note}
          </p>
        ) : null}
        <label className="field" htmlFor="import-paths">
          <span className="field-label">Folders or files, one a line</span>
        </label>
        <textarea
          id="import-paths"
          className="mono import-paths"
          rows={4}
          spellCheck={false}
          placeholder={'/home/you/stable-diffusion-webui/outputs\n/home/you/ComfyUI/output'}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setError(null);
          }}
          autoFocus
        />
        {desktop ? (
          <button type="button" className="btn small" onClick={() => void choose()}>
            Choose folders…
          </button>
        ) : null}
        <fieldset className="import-mode">
          <legend className="field-label">How</legend>
          <label className="check">
            <input type="radio" name="import-mode" checked={mode === 'link'} onChange={() => setMode('link')} />
            <span>
              Keep files where they are{' '}
              <span className="muted small">— Atelier only reads them and keeps a thumbnail</span>
            </span>
          </label>
          <label className="check">
            <input type="radio" name="import-mode" checked={mode === 'copy'} onChange={() => setMode('copy')} />
            <span>
              Copy into Atelier’s library <span className="muted small">— they stay here even if the originals go</span>
            </span>
          </label>
        </fieldset>
        <label className="check">
          <input type="checkbox" checked={watch} onChange={(e) => setWatch(e.target.checked)} />
          <span>
            Watch for new images <span className="muted small">— what a tool saves there later shows up by itself</span>
          </span>
        </label>
        <p className="muted small">Atelier never changes, moves or deletes your files.</p>
        {error === null ? null : (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="btn primary" disabled={busy} title="Ctrl+Enter">
            Import
          </button>
        </div>
      </form>
    </dialog>
  );
}
