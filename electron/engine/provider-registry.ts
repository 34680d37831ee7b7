import { AppError } from '../../shared/errors.js';
import type { ProviderInfo, ProviderTestResult } from '../../shared/contract.js';
import type { SecretBook } from '../providers/redact.js';
import { redactingProvider } from '../providers/redacting-provider.js';
import type { Provider, ProviderConfig, ProviderListing } from '../providers/types.js';
import type { ModelCache } from './model-cache.js';
import type { ProviderHealth } from './provider-health.js';
import type { ProviderDefaults, SettingsService } from './settings-service.js';

/** Hard bound on any provider response body or stream (no unbounded buffering). */
export const DEFAULT_MAX_RESPONSE_BYTES = 128 * 1024 * 1024;

export interface ProviderRegistry {
  ids(): string[];
  get(id: string): Provider;
  /** Settings + decrypted secrets for one call; secrets exist only in this object, never in job JSON or logs. */
  config(id: string): Promise<ProviderConfig>;
  /** The provider, its config, and a check that it is enabled and configured. */
  ready(id: string): Promise<{ provider: Provider; config: ProviderConfig }>;
  list(): Promise<ProviderInfo[]>;
  test(id: string): Promise<ProviderTestResult>;
}

export interface ProviderEntry {
  provider: Provider;
  defaults: ProviderDefaults[string];
  /** Releases what the provider holds (e.g. the builtin's worker threads). */
  close?: () => Promise<void> | void;
  /** Ready whenever it is on: nothing to connect to, nothing to test (the builtin). */
  alwaysReady?: boolean;
}

export function createProviderRegistry(
  entries: ProviderEntry[],
  settings: SettingsService,
  options: { maxResponseBytes?: number; secrets?: SecretBook; models?: ModelCache; health?: ProviderHealth; now?: () => number } = {},
): ProviderRegistry {
  // Every caller (ready, list, test) gets the provider behind the redacting boundary, never the bare one.
  const byId = new Map(entries.map((e) => [e.provider.id, redactingProvider(e.provider, (s) => options.secrets?.add(s))]));
  const alwaysReady = new Set(entries.filter((e) => e.alwaysReady === true).map((e) => e.provider.id));
  const now = options.now ?? Date.now;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;

  const get = (id: string): Provider => {
    const provider = byId.get(id);
    if (provider === undefined) {
      throw new AppError('invalid_request', `There is no provider called “${id}”. Choose one from the list.`, {
        details: { fields: { provider: 'Unknown provider.' } },
      });
    }
    return provider;
  };

  const config = async (id: string): Promise<ProviderConfig> => {
    get(id);
    const s = settings.provider(id);
    if (s === undefined) throw new AppError('internal', `Provider ${id} has no settings.`);
    const c: ProviderConfig = { timeoutMs: s.timeoutMs, maxResponseBytes };
    if (s.baseUrl !== undefined) c.baseUrl = s.baseUrl;
    if (s.model !== undefined) c.model = s.model;
    if (s.username !== undefined) c.username = s.username;
    if (s.workflow !== undefined) c.workflow = s.workflow;
    const upscalers = options.models?.get(id)?.upscalers;
    if (upscalers !== undefined) c.upscalers = upscalers;
    if (s.hasApiKey) {
      const key = await settings.secret(id, 'apiKey');
      if (key !== undefined) c.apiKey = key;
    }
    if (s.hasPassword) {
      const password = await settings.secret(id, 'password');
      if (password !== undefined) c.password = password;
    }
    return c;
  };

  // Enabled, set-up providers whose model list comes from their server: a listing refreshes a stale one.
  const listTargets = async () => {
    const targets = [];
    for (const provider of byId.values()) {
      if (provider.listsModels !== true || settings.provider(provider.id)?.enabled !== true) continue;
      const c = await config(provider.id);
      if (provider.isConfigured(c)) targets.push({ id: provider.id, fetch: () => provider.test(c, AbortSignal.timeout(Math.min(c.timeoutMs, 30_000))) });
    }
    return targets;
  };

  return {
    ids: () => [...byId.keys()],
    get,
    config,
    async ready(id) {
      const provider = get(id);
      const s = settings.provider(id);
      if (s === undefined || !s.enabled) {
        throw new AppError('invalid_request', `${provider.name} is turned off. Turn it on in Settings first.`, {
          details: { fields: { provider: 'This provider is turned off.' } },
        });
      }
      const c = await config(id);
      if (!provider.isConfigured(c)) {
        throw new AppError('invalid_request', `${provider.name} is not set up yet: add its address or key in Settings.`, {
          details: { fields: { provider: 'Not set up.' } },
        });
      }
      return { provider, config: c };
    },
    async list() {
      const infos: ProviderInfo[] = [];
      await options.models?.refreshStale(await listTargets());
      for (const provider of byId.values()) {
        const c = await config(provider.id);
        const s = settings.provider(provider.id);
        const info: ProviderInfo = {
          id: provider.id,
          kind: provider.id as ProviderInfo['kind'],
          name: provider.name,
          concurrency: s?.concurrency ?? 1,
          health: { state: 'unknown', running: [] },
          enabled: s?.enabled ?? false,
          configured: provider.isConfigured(c),
          capabilities: provider.capabilities(c),
          models: options.models?.merged(provider.id, provider.knownModels(c)) ?? provider.knownModels(c),
          status: options.health?.status(provider.id, {
            enabled: s?.enabled ?? false,
            alwaysReady: alwaysReady.has(provider.id),
            connection: connectionOf(s),
          }) ?? { state: 'untested' },
        };
        const listedAt = options.models?.get(provider.id)?.listedAt;
        if (listedAt !== undefined) info.modelsListedAt = listedAt;
        if (c.model !== undefined) info.defaultModel = c.model;
        infos.push(info);
      }
      return infos;
    },
    async test(id) {
      const provider = get(id);
      const c = await config(id);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), Math.min(c.timeoutMs, 30_000));
      let result: ProviderListing;
      try {
        result = await provider.test(c, controller.signal);
        if (result.ok && provider.listsModels === true) options.models?.put(id, result.models, result.upscalers);
      } catch (error) {
        const message = error instanceof AppError ? error.message : 'The connection test failed.';
        result = { ok: false, reachable: false, models: [], latencyMs: 0, message };
      } finally {
        clearTimeout(timer);
      }
      const secrets = [c.apiKey, c.password].filter((x): x is string => x !== undefined);
      options.health?.record(id, { at: now(), ok: result.ok, source: 'test', message: result.message, secrets, connection: connectionOf(settings.provider(id)) });
      return result;
    },
  };
}

/** What a connection test depends on: a new address or login needs a new test. */
export function connectionOf(s: { baseUrl?: string; username?: string; hasApiKey: boolean; hasPassword: boolean } | undefined): string {
  return JSON.stringify([s?.baseUrl ?? '', s?.username ?? '', s?.hasApiKey ?? false, s?.hasPassword ?? false]);
}
