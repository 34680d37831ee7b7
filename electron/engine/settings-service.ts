import { AppError } from '../../shared/errors.js';
import { ComfyNodeRule, type ProviderSettings, type Settings, type SettingsPatch } from '../../shared/contract.js';
import type { JobStore } from '../db/types.js';
import type { Keyring } from '../base/keyring.js';
import { applySpendPatch, emptySpend, readSpend, type StoredSpend } from '../spend/spend-settings.js';

/** What is stored in the settings table: everything but secrets, which live in the keyring. */
export interface StoredProviderSettings {
  enabled: boolean;
  baseUrl?: string;
  model?: string;
  timeoutMs: number;
  concurrency: number;
  /** Jobs started per minute at most (electron/scheduler/queue-control.ts); absent: no limit. */
  perMinute?: number;
  username?: string;
  workflow?: string;
  hasApiKey: boolean;
  hasPassword: boolean;
}

/** A server added beside the first of its kind (the first instance of each kind has the kind as its id). */
export interface StoredInstance {
  id: string;
  kind: string;
  name: string;
}

export interface StoredSettings {
  concurrency: { global: number };
  retention: { trashAutoEmptyDays: number; maxJobs: number | null; maxBytes: number | null; maxAgeDays: number | null };
  theme: Settings['theme'];
  providers: Record<string, StoredProviderSettings>;
  library: { xmpSidecars: boolean; comfyNodeRules: ComfyNodeRule[] };
  updates: { auto: boolean };
  spend: StoredSpend;
  /** Added instances, oldest first; a library from before them has none. */
  instances: StoredInstance[];
  /** The last number handed out per kind: a removed comfyui-2's id is never given to another server. */
  instanceNumbers: Record<string, number>;
}

export type ProviderDefaults = Record<string, Omit<StoredProviderSettings, 'hasApiKey' | 'hasPassword'>>;

const SETTINGS_KEY = 'settings';

export function secretName(providerId: string, kind: 'apiKey' | 'password'): string {
  return `provider.${providerId}.${kind}`;
}

export interface SettingsService {
  current(): StoredSettings;
  provider(id: string): StoredProviderSettings | undefined;
  secret(providerId: string, kind: 'apiKey' | 'password'): Promise<string | undefined>;
  publicView(): Settings;
  update(patch: SettingsPatch): Promise<Settings>;
  /** Stores a new instance of a kind with the kind's defaults; its id is `<kind>-<n>`. */
  addInstance(input: {
    kind: string;
    name: string;
    baseUrl?: string | undefined;
    concurrency?: number | undefined;
  }): Promise<StoredInstance>;
  /** Forgets an added instance's settings and secrets; false when there is no such added instance. */
  removeInstance(id: string): Promise<boolean>;
}

/** The fields a patch sets: one left out (or undefined, which JSON never carries) keeps its stored value. */
function setFields<T extends object>(patch: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

export function createSettingsService(options: {
  store: JobStore;
  keyring: Keyring;
  dataDir: string;
  providerDefaults: ProviderDefaults;
  /** Called after every successful update (the worker picks up new limits). */
  onChange?: (settings: StoredSettings) => void;
}): SettingsService {
  const { store, keyring, dataDir, providerDefaults } = options;

  const defaults = (): StoredSettings => ({
    // Two jobs at once keeps a 2-core machine responsive while a remote provider works.
    concurrency: { global: 2 },
    retention: { trashAutoEmptyDays: 30, maxJobs: null, maxBytes: null, maxAgeDays: null },
    theme: 'system',
    library: { xmpSidecars: false, comfyNodeRules: [] },
    updates: { auto: true },
    spend: emptySpend(),
    instances: [],
    instanceNumbers: {},
    providers: Object.fromEntries(
      Object.entries(providerDefaults).map(([id, d]) => [id, { ...d, hasApiKey: false, hasPassword: false }]),
    ),
  });

  const load = (): StoredSettings => {
    const base = defaults();
    const stored = store.getSetting<Partial<StoredSettings>>(SETTINGS_KEY);
    if (stored === null) return base;
    const providers: Record<string, StoredProviderSettings> = { ...base.providers };
    // Added instances start from their kind's defaults; one whose kind is no longer shipped is left out.
    const instances = (Array.isArray(stored.instances) ? stored.instances : []).filter(
      (i) =>
        typeof i?.id === 'string' &&
        typeof i.kind === 'string' &&
        typeof i.name === 'string' &&
        Object.hasOwn(base.providers, i.kind) &&
        !Object.hasOwn(base.providers, i.id),
    );
    for (const instance of instances) providers[instance.id] = { ...base.providers[instance.kind]! };
    for (const [id, p] of Object.entries(stored.providers ?? {})) {
      // Providers that no longer exist are kept out of the view but not deleted from disk.
      const known = ownProvider(providers, id);
      if (known !== undefined) providers[id] = { ...known, ...p };
    }
    return {
      instances,
      instanceNumbers: { ...stored.instanceNumbers },
      concurrency: { ...base.concurrency, ...stored.concurrency },
      retention: { ...base.retention, ...stored.retention },
      theme: stored.theme ?? base.theme,
      library: {
        ...base.library,
        ...stored.library,
        // Read back from the database like any file: a rule that is not one any more is left out.
        comfyNodeRules: (Array.isArray(stored.library?.comfyNodeRules) ? stored.library.comfyNodeRules : []).flatMap(
          (rule: unknown) => {
            const parsed = ComfyNodeRule.safeParse(rule);
            return parsed.success ? [parsed.data] : [];
          },
        ),
      },
      updates: { ...base.updates, ...stored.updates },
      spend: readSpend(stored.spend),
      providers,
    };
  };

  let cached = load();

  const publicProvider = (p: StoredProviderSettings): ProviderSettings => {
    const view: ProviderSettings = {
      enabled: p.enabled,
      timeoutMs: p.timeoutMs,
      concurrency: p.concurrency,
      hasApiKey: p.hasApiKey,
      hasPassword: p.hasPassword,
    };
    // A URL stored with credentials (defaults, or a library from before they were refused) never shows them.
    if (p.baseUrl !== undefined) view.baseUrl = withoutCredentials(p.baseUrl);
    if (p.model !== undefined) view.model = p.model;
    if (p.perMinute !== undefined) view.perMinute = p.perMinute;
    if (p.username !== undefined) view.username = p.username;
    if (p.workflow !== undefined) view.workflow = p.workflow;
    return view;
  };

  const service: SettingsService = {
    current: () => cached,
    provider: (id) => ownProvider(cached.providers, id),
    async secret(providerId, kind) {
      return (await keyring.get(secretName(providerId, kind))) ?? undefined;
    },
    publicView() {
      return {
        concurrency: { ...cached.concurrency },
        retention: { ...cached.retention },
        theme: cached.theme,
        library: { ...cached.library, comfyNodeRules: cached.library.comfyNodeRules.map((r) => ({ ...r })) },
        updates: { ...cached.updates },
        spend: { prices: { ...cached.spend.prices }, monthlyCapUsd: { ...cached.spend.monthlyCapUsd } },
        providers: Object.fromEntries(Object.entries(cached.providers).map(([id, p]) => [id, publicProvider(p)])),
        dataDir,
      };
    },
    async update(patch) {
      const next: StoredSettings = structuredClone(cached);
      if (patch.concurrency) next.concurrency = { ...next.concurrency, ...patch.concurrency };
      if (patch.retention) next.retention = { ...next.retention, ...setFields(patch.retention) };
      if (patch.theme) next.theme = patch.theme;
      if (patch.library?.xmpSidecars !== undefined)
        next.library = { ...next.library, xmpSidecars: patch.library.xmpSidecars };
      if (patch.library?.comfyNodeRules !== undefined)
        next.library = { ...next.library, comfyNodeRules: patch.library.comfyNodeRules };
      if (patch.updates?.auto !== undefined) next.updates = { ...next.updates, auto: patch.updates.auto };
      if (patch.spend !== undefined) next.spend = applySpendPatch(next.spend, patch.spend);
      const secretWrites: Array<() => Promise<void>> = [];
      for (const [id, p] of Object.entries(patch.providers ?? {})) {
        const current = ownProvider(next.providers, id);
        if (current === undefined) {
          throw new AppError('invalid_request', `There is no provider called “${id}”.`, {
            details: { fields: { [`providers.${id}`]: 'Unknown provider.' } },
          });
        }
        if (p.enabled !== undefined) current.enabled = p.enabled;
        if (p.timeoutMs !== undefined) current.timeoutMs = p.timeoutMs;
        if (p.concurrency !== undefined) current.concurrency = p.concurrency;
        if (p.perMinute === null) delete current.perMinute;
        else if (p.perMinute !== undefined) current.perMinute = p.perMinute;
        if (p.baseUrl !== undefined) {
          if (p.baseUrl === null) delete current.baseUrl;
          else current.baseUrl = normaliseBaseUrl(p.baseUrl, id);
        }
        for (const field of ['model', 'username', 'workflow'] as const) {
          const value = p[field];
          if (value === undefined) continue;
          if (value === null) delete current[field];
          else current[field] = value;
        }
        if (p.workflow) validateWorkflow(p.workflow, id);
        for (const [kind, flag] of [
          ['apiKey', 'hasApiKey'],
          ['password', 'hasPassword'],
        ] as const) {
          const value = p[kind];
          if (value === undefined) continue;
          current[flag] = value !== null;
          const name = secretName(id, kind);
          secretWrites.push(() => (value === null ? keyring.delete(name) : keyring.set(name, value)));
        }
      }
      // Secrets first: a settings row never claims a key that the keyring failed to store.
      for (const write of secretWrites) await write();
      save(next);
      return service.publicView();
    },
    async addInstance({ kind, name, baseUrl, concurrency }) {
      const base = ownProvider(providerDefaultsStored(), kind);
      if (base === undefined) {
        throw new AppError('invalid_request', `Atelier has no provider kind called “${kind}”.`, {
          details: { fields: { kind: 'Unknown kind.' } },
        });
      }
      const next: StoredSettings = structuredClone(cached);
      let n = Math.max(1, next.instanceNumbers[kind] ?? 1);
      do n += 1;
      while (Object.hasOwn(next.providers, `${kind}-${n}`));
      const instance: StoredInstance = { id: `${kind}-${n}`, kind, name };
      const settings: StoredProviderSettings = { ...base };
      if (baseUrl !== undefined) settings.baseUrl = normaliseBaseUrl(baseUrl, instance.id);
      if (concurrency !== undefined) settings.concurrency = concurrency;
      next.providers[instance.id] = settings;
      next.instances.push(instance);
      next.instanceNumbers[kind] = n;
      save(next);
      return instance;
    },
    async removeInstance(id) {
      if (!cached.instances.some((i) => i.id === id)) return false;
      const next: StoredSettings = structuredClone(cached);
      next.instances = next.instances.filter((i) => i.id !== id);
      delete next.providers[id];
      // The row goes first: a keyring that fails afterwards leaves a secret no setting points to, never the reverse.
      save(next);
      for (const kind of ['apiKey', 'password'] as const) await keyring.delete(secretName(id, kind));
      return true;
    },
  };
  function save(next: StoredSettings): void {
    store.setSetting(SETTINGS_KEY, next);
    cached = next;
    options.onChange?.(cached);
  }
  function providerDefaultsStored(): Record<string, StoredProviderSettings> {
    return defaults().providers;
  }
  return service;
}

/** Only a provider's own entry: "constructor" or "__proto__" must never reach Object or Object.prototype. */
function ownProvider(
  providers: Record<string, StoredProviderSettings>,
  id: string,
): StoredProviderSettings | undefined {
  return Object.hasOwn(providers, id) ? providers[id] : undefined;
}

function withoutCredentials(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.username === '' && url.password === '') return raw;
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/+$/, '');
  } catch {
    return raw;
  }
}

function normaliseBaseUrl(raw: string, providerId: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('invalid_request', 'That base URL is not a valid address.', {
      details: { fields: { [`providers.${providerId}.baseUrl`]: 'Not a valid URL.' } },
    });
  }
  if (url.username || url.password) {
    throw new AppError('invalid_request', 'Put the user name and password in their own fields, not in the URL.', {
      details: { fields: { [`providers.${providerId}.baseUrl`]: 'No credentials in the URL.' } },
    });
  }
  return url.toString().replace(/\/+$/, '');
}

function validateWorkflow(text: string, providerId: string): void {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
  } catch {
    throw new AppError('invalid_request', 'The workflow must be ComfyUI API-format JSON (Export (API) in ComfyUI).', {
      details: { fields: { [`providers.${providerId}.workflow`]: 'Not API-format JSON.' } },
    });
  }
}
