import { useEffect, useState } from 'react';
import type { ProviderInfo, ProviderSettings, ProviderSettingsPatch } from '../../../shared/contract';
import { useApp } from '../store/context';

/** One provider: switch it on, point it somewhere, give it a key (never shown back), test it. */
export function ProviderSettingsCard({ provider, settings }: { provider: ProviderInfo; settings: ProviderSettings | undefined }) {
  const update = useApp((s) => s.updateSettings);
  const test = useApp((s) => s.testProvider);
  const result = useApp((s) => s.providerTests[provider.id]);
  const toast = useApp((s) => s.toast);
  const [baseUrl, setBaseUrl] = useState(settings?.baseUrl ?? '');
  const [model, setModel] = useState(settings?.model ?? '');
  const [apiKey, setApiKey] = useState('');
  const needsUrl = provider.id !== 'builtin' && provider.id !== 'openai';
  const needsKey = provider.id === 'openai' || settings?.hasApiKey === true;

  useEffect(() => {
    setBaseUrl(settings?.baseUrl ?? '');
    setModel(settings?.model ?? '');
  }, [settings?.baseUrl, settings?.model]);

  const save = async (patch: ProviderSettingsPatch, message: string) => {
    if (await update({ providers: { [provider.id]: patch } })) toast({ kind: 'info', message });
  };

  const saveFields = () => {
    const patch: ProviderSettingsPatch = {};
    if (baseUrl.trim() !== (settings?.baseUrl ?? '')) patch.baseUrl = baseUrl.trim() === '' ? null : baseUrl.trim();
    if (model.trim() !== (settings?.model ?? '')) patch.model = model.trim() === '' ? null : model.trim();
    if (apiKey !== '') patch.apiKey = apiKey;
    setApiKey('');
    void save(patch, `${provider.name} saved.`);
  };

  const fieldId = (name: string) => `provider-${provider.id}-${name}`;

  return (
    <article className="provider-card" aria-label={provider.name}>
      <header>
        <label className="check">
          <input type="checkbox" checked={settings?.enabled ?? provider.enabled} onChange={(e) => void save({ enabled: e.target.checked }, `${provider.name} ${e.target.checked ? 'enabled' : 'disabled'}.`)} />
          <strong>{provider.name}</strong>
        </label>
        <span className={provider.configured ? 'badge ok' : 'badge'}>{provider.configured ? 'Ready' : 'Needs setup'}</span>
      </header>
      <form
        className="settings-grid"
        onSubmit={(e) => {
          e.preventDefault();
          saveFields();
        }}
      >
        {needsUrl ? (
          <label htmlFor={fieldId('url')}>
            Base URL
            <input id={fieldId('url')} type="url" value={baseUrl} placeholder="http://127.0.0.1:7860" onChange={(e) => setBaseUrl(e.target.value)} />
          </label>
        ) : null}
        {provider.id !== 'builtin' ? (
          <label htmlFor={fieldId('model')}>
            Model
            <input id={fieldId('model')} list={fieldId('models')} value={model} placeholder={provider.defaultModel ?? ''} onChange={(e) => setModel(e.target.value)} />
            <datalist id={fieldId('models')}>
              {provider.models.map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
          </label>
        ) : null}
        {needsKey ? (
          <label htmlFor={fieldId('key')}>
            API key {settings?.hasApiKey ? <span className="badge ok">key set</span> : null}
            <input
              id={fieldId('key')}
              type="password"
              autoComplete="off"
              value={apiKey}
              placeholder={settings?.hasApiKey ? 'A key is stored — type to replace it' : 'Paste your key'}
              onChange={(e) => setApiKey(e.target.value)}
            />
          </label>
        ) : null}
        <div className="provider-buttons">
          {provider.id !== 'builtin' ? (
            <button type="submit" className="btn small primary">
              Save
            </button>
          ) : null}
          {settings?.hasApiKey ? (
            <button type="button" className="btn small" onClick={() => void save({ apiKey: null }, `${provider.name} key forgotten.`)}>
              Forget key
            </button>
          ) : null}
          <button type="button" className="btn small" disabled={result === 'testing'} onClick={() => void test(provider.id)}>
            {result === 'testing' ? 'Testing…' : 'Test connection'}
          </button>
        </div>
      </form>
      {result !== undefined && result !== 'testing' ? (
        <p className={result.ok ? 'test-result ok' : 'test-result fail'} role="status">
          {result.ok ? '✓ ' : '✗ '}
          {result.message} ({result.latencyMs} ms{result.models.length > 0 ? `, ${result.models.length} models` : ''})
        </p>
      ) : null}
    </article>
  );
}
