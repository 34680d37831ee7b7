import { useState } from 'react';
import type { ProviderInfo, ProviderSettings, ProviderSettingsPatch } from '../../../shared/contract';
import { MAX_PER_MINUTE, MAX_PROVIDER_CONCURRENCY } from '../common/contract-constants';
import { formatCount, formatRelativeTime } from '../common/format';
import { providerStatusView } from './provider-status';
import { isAddedInstance, runningText } from './instances';
import { RemoveServer } from './RemoveServer';
import { useNow } from '../common/use-now';
import { useApp, useJobIndex } from '../store/context';

const KEYED_KINDS: ReadonlySet<string> = new Set([
  'openai',
  'gemini',
  'bfl',
  'fal',
  'replicate',
  'stability',
  'runpod',
]);

const URL_PLACEHOLDERS: Record<string, string> = {
  openai: 'https://api.openai.com (or an OpenAI-compatible server)',
  gemini: 'https://generativelanguage.googleapis.com',
  bfl: 'https://api.bfl.ai (or api.eu.bfl.ai, api.us.bfl.ai)',
  fal: 'https://queue.fal.run',
  replicate: 'https://api.replicate.com',
  stability: 'https://api.stability.ai',
  runpod: 'https://api.runpod.ai/v2/<your endpoint id>',
  a1111: 'http://127.0.0.1:7860',
  comfyui: 'http://127.0.0.1:8188',
};

/** What an empty model field runs, for the servers that list their own models. */
const EMPTY_MODEL: Record<string, string> = {
  a1111: 'the checkpoint A1111 has loaded',
  comfyui: 'the first one listed',
};

/** Where the model suggestions came from: the server's list (when fetched) or a nudge to fetch it. */
function modelsHint(provider: ProviderInfo): string | null {
  const empty = EMPTY_MODEL[provider.id];
  if (empty === undefined) return null;
  if (provider.modelsListedAt === undefined) return 'No list yet: Test connection fetches the server’s models.';
  return `${formatCount(provider.models.length, 'model')} listed ${formatRelativeTime(provider.modelsListedAt, Date.now())}. Empty: ${empty}.`;
}

/** A write-only secret: says whether one is stored, never shows it; typing replaces it on save. */
function SecretField(props: {
  id: string;
  label: string;
  stored: boolean;
  storedBadge: string;
  storedHint: string;
  emptyHint: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label htmlFor={props.id}>
      {props.label} {props.stored ? <span className="badge ok">{props.storedBadge}</span> : null}
      <input
        id={props.id}
        type="password"
        autoComplete="off"
        value={props.value}
        placeholder={props.stored ? props.storedHint : props.emptyHint}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  );
}

/** One provider: switch it on, point it somewhere, give it a key (never shown back), test it. */
export function ProviderSettingsCard({
  provider,
  settings,
  note,
}: {
  provider: ProviderInfo;
  settings: ProviderSettings | undefined;
  /** What the provider is, in a line under its name (the built-in's placeholder scenes). */
  note?: string;
}) {
  const update = useApp((s) => s.updateSettings);
  const test = useApp((s) => s.testProvider);
  const result = useApp((s) => s.providerTests[provider.id]);
  const toast = useApp((s) => s.toast);
  const liveFailure = useApp((s) => s.providerDown[provider.id]);
  const { byId: jobs } = useJobIndex();
  const now = useNow();
  const [baseUrl, setBaseUrl] = useState(settings?.baseUrl ?? '');
  const [model, setModel] = useState(settings?.model ?? '');
  const [apiKey, setApiKey] = useState('');
  const [username, setUsername] = useState(settings?.username ?? '');
  const [password, setPassword] = useState('');
  const [workflow, setWorkflow] = useState(settings?.workflow ?? '');
  const [atOnce, setAtOnce] = useState(String(settings?.concurrency ?? provider.concurrency));
  const [perMinute, setPerMinute] = useState(settings?.perMinute === undefined ? '' : String(settings.perMinute));
  const needsUrl = provider.id !== 'builtin';
  // Hosted services and rented GPUs take a key; local servers only when one was stored anyway.
  const needsKey = KEYED_KINDS.has(provider.kind) || settings?.hasApiKey === true;
  // A1111/Forge behind --api-auth takes a user name and password; ComfyUI (and RunPod's worker) can run the person's own workflow.
  const takesLogin = provider.id === 'a1111';
  const takesWorkflow = provider.id === 'comfyui' || provider.kind === 'runpod';

  // Saved elsewhere (or just now): the fields show what is saved (adjusted while rendering, not in an effect).
  const savedKey = JSON.stringify([
    settings?.baseUrl,
    settings?.model,
    settings?.username,
    settings?.workflow,
    settings?.concurrency,
    settings?.perMinute,
  ]);
  const [shownKey, setShownKey] = useState(savedKey);
  if (shownKey !== savedKey) {
    setShownKey(savedKey);
    setBaseUrl(settings?.baseUrl ?? '');
    setModel(settings?.model ?? '');
    setUsername(settings?.username ?? '');
    setWorkflow(settings?.workflow ?? '');
    setAtOnce(String(settings?.concurrency ?? provider.concurrency));
    setPerMinute(settings?.perMinute === undefined ? '' : String(settings.perMinute));
  }

  const save = async (patch: ProviderSettingsPatch, message: string): Promise<boolean> => {
    const saved = await update({ providers: { [provider.id]: patch } });
    if (saved) toast({ kind: 'info', message });
    return Boolean(saved);
  };

  // The switch answers at once and goes back only if saving fails.
  const savedEnabled = settings?.enabled ?? provider.enabled;
  const [enabled, setEnabled] = useState(savedEnabled);
  const enabledKey = `${settings?.enabled}:${provider.enabled}`;
  const [shownEnabled, setShownEnabled] = useState(enabledKey);
  if (shownEnabled !== enabledKey) {
    setShownEnabled(enabledKey);
    setEnabled(savedEnabled);
  }
  const toggle = (next: boolean) => {
    setEnabled(next);
    void save({ enabled: next }, `${provider.name} ${next ? 'enabled' : 'disabled'}.`).then((saved) => {
      if (!saved) setEnabled(!next);
    });
  };

  const saveFields = () => {
    const patch: ProviderSettingsPatch = {};
    if (baseUrl.trim() !== (settings?.baseUrl ?? '')) patch.baseUrl = baseUrl.trim() === '' ? null : baseUrl.trim();
    if (model.trim() !== (settings?.model ?? '')) patch.model = model.trim() === '' ? null : model.trim();
    if (apiKey !== '') patch.apiKey = apiKey;
    if (takesLogin && username.trim() !== (settings?.username ?? ''))
      patch.username = username.trim() === '' ? null : username.trim();
    if (takesLogin && password !== '') patch.password = password;
    if (takesWorkflow && workflow.trim() !== (settings?.workflow ?? ''))
      patch.workflow = workflow.trim() === '' ? null : workflow.trim();
    // Out-of-range numbers go as typed: the engine refuses them with the allowed range in words.
    const slots = Number(atOnce);
    if (atOnce.trim() !== '' && slots !== (settings?.concurrency ?? provider.concurrency)) patch.concurrency = slots;
    const rate = perMinute.trim() === '' ? null : Number(perMinute);
    if (rate !== (settings?.perMinute ?? null)) patch.perMinute = rate;
    setApiKey('');
    setPassword('');
    void save(patch, `${provider.name} saved.`);
  };

  const fieldId = (name: string) => `provider-${provider.id}-${name}`;
  // The switch answers before the save: say Off at once, not what the engine said before it.
  const status = providerStatusView(
    enabled ? provider : { ...provider, status: { state: 'off' } },
    now,
    enabled ? liveFailure : undefined,
  );

  return (
    <article className="provider-card" aria-label={provider.name}>
      <header>
        <label className="check">
          <input type="checkbox" checked={enabled} onChange={(e) => toggle(e.target.checked)} />
          <strong>{provider.name}</strong>
        </label>
        <span className={`badge provider-state ${status.tone}`} data-state={status.label}>
          {status.label}
        </span>
      </header>
      {note === undefined ? null : <p className="builtin-note">{note}</p>}
      <p className={`provider-status ${status.tone}`} aria-label={`${provider.name} status`}>
        {/* A test result just below says the provider's words already: the status line need not repeat them. */}
        {result !== undefined && result !== 'testing' ? status.headline : status.detail}
      </p>
      {provider.health.running.length === 0 ? null : (
        <p className="hint provider-running">{runningText(provider.health.running, (id) => jobs[id]?.prompt)}</p>
      )}
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
            <input
              id={fieldId('url')}
              type="url"
              value={baseUrl}
              placeholder={URL_PLACEHOLDERS[provider.id] ?? 'http://127.0.0.1'}
              onChange={(e) => setBaseUrl(e.target.value)}
            />
          </label>
        ) : null}
        {provider.id !== 'builtin' ? (
          <label htmlFor={fieldId('model')}>
            Model
            <input
              id={fieldId('model')}
              list={fieldId('models')}
              value={model}
              placeholder={provider.defaultModel ?? (provider.id === 'comfyui' ? provider.models[0] : undefined) ?? ''}
              onChange={(e) => setModel(e.target.value)}
            />
            <datalist id={fieldId('models')}>
              {provider.models.map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
          </label>
        ) : null}
        {modelsHint(provider) === null ? null : <p className="hint wide">{modelsHint(provider)}</p>}
        {needsKey ? (
          <SecretField
            id={fieldId('key')}
            label="API key"
            stored={settings?.hasApiKey === true}
            storedBadge="key set"
            storedHint="A key is stored — type to replace it"
            emptyHint="Paste your key"
            value={apiKey}
            onChange={setApiKey}
          />
        ) : null}
        {takesLogin ? (
          <>
            <label htmlFor={fieldId('user')}>
              User name (optional)
              <input
                id={fieldId('user')}
                autoComplete="off"
                value={username}
                onChange={(e) => setUsername(e.target.value)}
              />
            </label>
            <SecretField
              id={fieldId('password')}
              label="Password"
              stored={settings?.hasPassword === true}
              storedBadge="password set"
              storedHint="A password is stored — type to replace it"
              emptyHint="Only if the web UI uses --api-auth"
              value={password}
              onChange={setPassword}
            />
          </>
        ) : null}
        <label htmlFor={fieldId('at-once')}>
          Jobs at once
          <input
            id={fieldId('at-once')}
            type="number"
            min={1}
            max={MAX_PROVIDER_CONCURRENCY}
            value={atOnce}
            onChange={(e) => setAtOnce(e.target.value)}
          />
        </label>
        <label htmlFor={fieldId('per-minute')}>
          Jobs per minute
          <input
            id={fieldId('per-minute')}
            type="number"
            min={1}
            max={MAX_PER_MINUTE}
            placeholder="No limit"
            value={perMinute}
            onChange={(e) => setPerMinute(e.target.value)}
          />
        </label>
        {takesWorkflow ? (
          <label htmlFor={fieldId('workflow')} className="wide">
            Workflow (API format, optional)
            <textarea
              id={fieldId('workflow')}
              rows={4}
              value={workflow}
              placeholder='Empty: the built-in text-to-image graph. Otherwise paste "Export (API)" JSON with {{prompt}}, {{seed}}, {{width}}…'
              onChange={(e) => setWorkflow(e.target.value)}
            />
          </label>
        ) : null}
        <div className="provider-buttons">
          {provider.id !== 'builtin' ? (
            <button type="submit" className="btn small primary">
              Save
            </button>
          ) : null}
          {settings?.hasPassword ? (
            <button
              type="button"
              className="btn small"
              onClick={() => void save({ password: null }, `${provider.name} password forgotten.`)}
            >
              Forget password
            </button>
          ) : null}
          {settings?.hasApiKey ? (
            <button
              type="button"
              className="btn small"
              onClick={() => void save({ apiKey: null }, `${provider.name} key forgotten.`)}
            >
              Forget key
            </button>
          ) : null}
          {/* The built-in runs in Atelier itself: there is no connection to test. */}
          {provider.kind === 'builtin' ? null : (
            <button
              type="button"
              className="btn small"
              disabled={result === 'testing'}
              onClick={() => void test(provider.id)}
            >
              {result === 'testing' ? 'Testing…' : 'Test connection'}
            </button>
          )}
          {isAddedInstance(provider) ? <RemoveServer provider={provider} /> : null}
        </div>
      </form>
      {result !== undefined && result !== 'testing' ? (
        <p className={result.ok ? 'test-result ok' : 'test-result fail'} role="status">
          {result.ok ? '✓ ' : '✗ '}
          {result.message} ({result.latencyMs} ms
          {result.models.length > 0 ? `, ${formatCount(result.models.length, 'model')}` : ''})
        </p>
      ) : null}
      {/* Advice about how the server runs (ComfyUI started without previews): worth acting on, so kept apart. */}
      {result !== undefined && result !== 'testing' && result.hint !== undefined ? (
        <p className="hint provider-hint">{result.hint}</p>
      ) : null}
    </article>
  );
}
