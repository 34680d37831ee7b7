import { useState } from 'react';
import type { JobDetail } from '../../../shared/contract';
import { useAppShallow } from '../store/context';
import { CorrectionForm } from './CorrectionForm';
import { isCorrected, ROW_FIELDS, ROW_LABELS, rowText, settingsView, type SettingRow } from './corrections';

const ROWS: SettingRow[] = ['negativePrompt', 'model', 'seed', 'steps', 'guidance', 'sampler', 'size'];

/** "file says: …" under a corrected value, and the one click that puts the file's value back. */
function FileSays({ label, text, onRevert }: { label: string; text: string; onRevert: () => void }) {
  return (
    <span className="file-says">
      <span className="muted">file says: {text === '' ? 'nothing' : text}</span>
      <button
        type="button"
        className="link small"
        aria-label={`Revert ${label} to what the file says`}
        onClick={onRevert}
      >
        Revert
      </button>
    </span>
  );
}

/** Under the prompt heading: what the file said, when the prompt was corrected. */
export function PromptFileSays({ detail }: { detail: JobDetail }) {
  const revert = useAppShallow((s) => s.revertCorrections);
  const view = settingsView(detail);
  if (!isCorrected(view, 'prompt')) return null;
  return (
    <p className="details-file-prompt">
      <FileSays label="the prompt" text={view.file.prompt} onRevert={() => void revert(detail.id, ['prompt'])} />
    </p>
  );
}

/**
 * An imported image's settings as Atelier uses them (the file's, with the person's corrections on top): each
 * corrected value shows what the file says under it, with Revert; "Correct settings…" opens the form.
 */
export function CorrectableSettings({ detail }: { detail: JobDetail }) {
  const [editing, setEditing] = useState(false);
  const revert = useAppShallow((s) => s.revertCorrections);
  const view = settingsView(detail);
  const corrected = Object.keys(view.corrections).length > 0;
  if (editing) return <CorrectionForm detail={detail} settings={view.effective} onDone={() => setEditing(false)} />;
  return (
    <section className="details-settings-block">
      <dl className="details-list details-settings" aria-label="Settings">
        {ROWS.map((row) => {
          const value = rowText(view.effective, row);
          const file = rowText(view.file, row);
          const changed = isCorrected(view, row);
          if (value === '' && !changed) return null;
          const label = ROW_LABELS[row];
          return (
            <div key={row} className={changed ? 'setting corrected' : 'setting'}>
              <dt>{label}</dt>
              <dd>
                <span className="setting-value">{value === '' ? 'none' : value}</span>
                {changed ? (
                  <FileSays
                    label={label.toLowerCase()}
                    text={file}
                    onRevert={() => void revert(detail.id, ROW_FIELDS[row])}
                  />
                ) : null}
              </dd>
            </div>
          );
        })}
      </dl>
      <div className="correction-actions">
        <button type="button" className="link small" onClick={() => setEditing(true)}>
          Correct settings…
        </button>
        {corrected ? (
          <button type="button" className="link small" onClick={() => void revert(detail.id)}>
            Revert all
          </button>
        ) : null}
      </div>
    </section>
  );
}
