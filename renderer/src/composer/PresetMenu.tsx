import { useCallback, useEffect, useRef, useState } from 'react';
import { useApp } from '../store/context';
import './composer-tools.css';
import { useOutsideClose } from '../common/use-outside-close';

/** Saved composer settings one click away: apply, save the current ones, delete (asked first), import A1111 styles. */
export function PresetMenu() {
  const presets = useApp((s) => s.presets);
  const error = useApp((s) => s.presetsError);
  const load = useApp((s) => s.loadPresets);
  const apply = useApp((s) => s.applyPreset);
  const save = useApp((s) => s.savePreset);
  const remove = useApp((s) => s.deletePreset);
  const importStyles = useApp((s) => s.importStyles);
  const reportError = useApp((s) => s.reportError);
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [confirming, setConfirming] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const closeMenu = useCallback(() => setOpen(false), []);

  useEffect(() => {
    if (open) void load();
  }, [open, load]);

  useOutsideClose(open, root, closeMenu);

  const saveCurrent = () => {
    if (name.trim() === '') return;
    void save(name).then((ok) => ok && setName(''));
  };

  const onFile = async (file: File | undefined) => {
    if (file === undefined) return;
    try {
      await importStyles(await file.text());
    } catch (e) {
      reportError(e);
    }
  };

  return (
    <div
      className="preset-menu"
      ref={root}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          setOpen(false);
        }
      }}
    >
      <button
        type="button"
        className="btn small"
        aria-expanded={open}
        aria-haspopup="true"
        onClick={() => setOpen(!open)}
      >
        Presets <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <div className="popover" role="group" aria-label="Presets">
          {error !== null ? <p className="hint">Presets are not available: {error}</p> : null}
          {presets === null && error === null ? <p className="hint">Loading…</p> : null}
          {presets !== null && presets.length === 0 ? (
            <p className="hint">No presets yet. Save the current settings, or import an A1111 styles.csv.</p>
          ) : null}
          {presets !== null && presets.length > 0 ? (
            <ul className="preset-list">
              {presets.map((p) => (
                <li key={p.id}>
                  {confirming === p.id ? (
                    <span className="preset-confirm">
                      Delete 1 preset, “{p.name}”?
                      <button
                        type="button"
                        className="btn small danger"
                        onClick={() => {
                          void remove(p.id);
                          setConfirming(null);
                        }}
                      >
                        Delete
                      </button>
                      <button type="button" className="btn small" onClick={() => setConfirming(null)}>
                        Keep
                      </button>
                    </span>
                  ) : (
                    <>
                      <button
                        type="button"
                        className="preset-apply"
                        title={p.template ?? p.negativePrompt ?? p.name}
                        onClick={() => {
                          apply(p.id);
                          setOpen(false);
                        }}
                      >
                        <span className="preset-name">{p.name}</span>
                        {p.template !== undefined ? <span className="preset-template">{p.template}</span> : null}
                      </button>
                      <button
                        type="button"
                        className="icon-btn"
                        aria-label={`Delete preset ${p.name}`}
                        title="Delete"
                        onClick={() => setConfirming(p.id)}
                      >
                        ×
                      </button>
                    </>
                  )}
                </li>
              ))}
            </ul>
          ) : null}
          {/* Inside the composer's form: no form of its own, and Enter saves rather than generating. */}
          <div className="preset-save">
            <input
              aria-label="Preset name"
              placeholder="Name for the current settings"
              value={name}
              maxLength={100}
              onChange={(e) => setName(e.target.value)}
              onKeyDown={(e) => {
                if (e.key !== 'Enter' || e.ctrlKey || e.metaKey) return;
                e.preventDefault();
                saveCurrent();
              }}
            />
            <button type="button" className="btn small" disabled={name.trim() === ''} onClick={saveCurrent}>
              Save current
            </button>
          </div>
          <p className="hint">
            Write {'{prompt}'} in the prompt box to save it as a template that wraps what you type.
          </p>
          <label className="btn small file-btn">
            Import styles.csv…
            <input
              type="file"
              accept=".csv,text/csv"
              aria-label="Import A1111 styles.csv"
              onChange={(e) => {
                void onFile(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
          </label>
        </div>
      ) : null}
    </div>
  );
}
