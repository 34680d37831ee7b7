import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { JobDetail } from '../../../shared/contract';
import type { ImageSettings } from '../../../shared/corrections/effective';
import { Field } from '../common/Field';
import { useAppShallow } from '../store/context';
import { changedFields, formValues, type FormValues } from './corrections';

type Key = keyof FormValues;

/** The settings as Atelier uses them, editable: only what the person changes is sent as a correction. */
export function CorrectionForm({
  detail,
  settings,
  onDone,
}: {
  detail: JobDetail;
  settings: ImageSettings;
  onDone: () => void;
}) {
  const correct = useAppShallow((s) => s.correctSettings);
  const [before] = useState(() => formValues(settings));
  const [values, setValues] = useState(before);
  const [saving, setSaving] = useState(false);
  const bind = (key: Key) => ({
    value: values[key],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value })),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const set = changedFields(before, values);
    if (Object.keys(set).length === 0) return onDone();
    setSaving(true);
    const saved = await correct(detail.id, set);
    setSaving(false);
    if (saved) onDone();
  };
  // Escape leaves the form, not the viewer.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onDone();
  };

  return (
    <form
      className="correction-form"
      aria-label="Correct settings"
      onSubmit={(e) => void submit(e)}
      onKeyDown={onKeyDown}
    >
      <p className="hint">What you change here is used from now on; the file keeps what it says.</p>
      <Field label="Prompt">{(p) => <textarea {...p} rows={3} {...bind('prompt')} />}</Field>
      <Field label="Negative prompt">{(p) => <textarea {...p} rows={2} {...bind('negativePrompt')} />}</Field>
      <Field label="Model">{(p) => <input {...p} type="text" {...bind('model')} />}</Field>
      <div className="row">
        <Field label="Seed">{(p) => <input {...p} type="text" inputMode="numeric" {...bind('seed')} />}</Field>
        <Field label="Steps">{(p) => <input {...p} type="text" inputMode="numeric" {...bind('steps')} />}</Field>
        <Field label="Guidance">{(p) => <input {...p} type="text" inputMode="decimal" {...bind('guidance')} />}</Field>
      </div>
      <Field label="Sampler">{(p) => <input {...p} type="text" {...bind('sampler')} />}</Field>
      <div className="row">
        <Field label="Width">{(p) => <input {...p} type="text" inputMode="numeric" {...bind('width')} />}</Field>
        <Field label="Height">{(p) => <input {...p} type="text" inputMode="numeric" {...bind('height')} />}</Field>
      </div>
      <div className="correction-actions">
        <button type="submit" className="btn small primary" disabled={saving}>
          Save corrections
        </button>
        <button type="button" className="btn small" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
