import { useState } from 'react';
import type { ProviderInfo } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { KIND_LABEL } from '../../../shared/mapping/settings';
import { healthText, isAddedInstance, runningText } from './instances';
import { useNow } from '../common/use-now';
import { useApi, useApp, useJobIndex } from '../store/context';
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

/** Every server of every kind: health, models, what it runs; add another server, remove one you added. */
export function InstancesSettings() {
  const api = useApi();
  const providers = useApp((s) => s.providers);
  const { byId: jobs } = useJobIndex();
  const reload = useApp((s) => s.loadSettings);
  const toast = useApp((s) => s.toast);
  const reportError = useApp((s) => s.reportError);
  const [kind, setKind] = useState<(typeof ADDABLE)[number]>('comfyui');
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [removing, setRemoving] = useState<ProviderInfo | null>(null);
  const [busy, setBusy] = useState(false);
  const now = useNow();

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

  const remove = async (provider: ProviderInfo) => {
    setRemoving(null);
    try {
      const { movedJobs } = await api.call('providers.remove', { id: provider.id });
      const moved =
        movedJobs === 0
          ? ''
          : ` ${movedJobs} queued job${movedJobs === 1 ? '' : 's'} moved to another ${KIND_LABEL[provider.kind]} server.`;
      toast({ kind: 'info', message: `Removed ${provider.name}.${moved}` });
      await reload();
    } catch (error) {
      reportError(error);
    }
  };

  return (
    <div className="instances">
      <table aria-label="Servers">
        <thead>
          <tr>
            <th scope="col">Server</th>
            <th scope="col">Health</th>
            <th scope="col">Models</th>
            <th scope="col">Now</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {providers.map((p) => (
            <tr key={p.id} aria-label={p.name}>
              <td>
                <div>{p.name}</div>
                <div className="instance-kind">
                  {KIND_LABEL[p.kind]}
                  {p.enabled ? '' : ' · off'} · {p.concurrency} at a time
                </div>
              </td>
              <td>
                <span className={`health ${p.health.state}`} title={p.health.message}>
                  {healthText(p.health, now)}
                </span>
                {p.health.state === 'down' && p.health.message !== undefined ? (
                  <div className="hint">{p.health.message}</div>
                ) : null}
              </td>
              <td title={p.models.join('\n')}>
                {p.models.length === 0 ? '—' : `${p.models.length} model${p.models.length === 1 ? '' : 's'}`}
                {p.health.loadedModel !== undefined ? <div className="hint">Loaded: {p.health.loadedModel}</div> : null}
              </td>
              <td>{runningText(p.health.running, (id) => jobs[id]?.prompt)}</td>
              <td>
                {isAddedInstance(p) ? (
                  removing?.id === p.id ? (
                    <span className="preset-confirm">
                      Remove 1 server? Its files and images stay.
                      <button type="button" className="btn small danger" onClick={() => void remove(p)}>
                        Remove
                      </button>
                      <button type="button" className="btn small" onClick={() => setRemoving(null)}>
                        Keep
                      </button>
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="btn small"
                      aria-label={`Remove ${p.name}`}
                      onClick={() => setRemoving(p)}
                    >
                      Remove
                    </button>
                  )
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
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
