import { useState } from 'react';
import { AppError } from '../../../shared/errors';
import { KIND_LABEL } from '../../../shared/mapping/settings';
import { useApi, useApp } from '../store/context';
import { Field } from '../common/Field';
import '../composer/composer-tools.css';

const ADDABLE = ['comfyui', 'a1111', 'openai'] as const;
const URL_HINT: Record<(typeof ADDABLE)[number], string> = {
  comfyui: 'http://192.168.1.20:8188',
  a1111: 'http://192.168.1.20:7860',
  openai: 'https://api.example.com/v1',
};

function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof AppError)) return {};
  const fields = error.details?.fields;
  const out: Record<string, string> = {};
  if (typeof fields === 'object' && fields !== null)
    for (const [k, v] of Object.entries(fields)) if (typeof v === 'string') out[k] = v;
  const field = error.details?.field;
  if (Object.keys(out).length === 0 && typeof field === 'string') out[field] = error.message;
  return out;
}

/** Add another server of a kind (its card appears below); the first of each kind is always there. */
export function AddServer() {
  const api = useApi();
  const reload = useApp((s) => s.loadSettings);
  const toast = useApp((s) => s.toast);
  const reportError = useApp((s) => s.reportError);
  const [kind, setKind] = useState<(typeof ADDABLE)[number]>('comfyui');
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const add = async () => {
    setBusy(true);
    try {
      const { provider } = await api.call('providers.add', {
        kind,
        name,
        ...(baseUrl.trim() === '' ? {} : { baseUrl: baseUrl.trim() }),
      });
      setName('');
      setBaseUrl('');
      setErrors({});
      toast({
        kind: 'info',
        message: provider.enabled
          ? `Added ${provider.name}.`
          : `Added ${provider.name}. Turn it on in its card below to send it work.`,
      });
      // Its card below needs its settings as well as its entry in the list.
      await reload();
    } catch (error) {
      const fields = fieldErrors(error);
      if (Object.keys(fields).length > 0) setErrors(fields);
      else reportError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="instances">
      <h4 className="subsection-title">Add a server</h4>
      <form
        className="add-server"
        aria-label="Add server"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <Field label="Kind" error={errors.kind}>
          {(props) => (
            <select {...props} value={kind} onChange={(e) => setKind(e.target.value as (typeof ADDABLE)[number])}>
              {ADDABLE.map((k) => (
                <option key={k} value={k}>
                  {KIND_LABEL[k]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Server name" error={errors.name}>
          {(props) => (
            <input
              {...props}
              value={name}
              placeholder="Studio GPU"
              maxLength={100}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        <Field label="Base URL" error={errors.baseUrl}>
          {(props) => (
            <input
              {...props}
              type="url"
              value={baseUrl}
              placeholder={URL_HINT[kind]}
              onChange={(e) => setBaseUrl(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="btn small" disabled={busy || name.trim() === ''}>
          Add server
        </button>
      </form>
    </div>
  );
}
