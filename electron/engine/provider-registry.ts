import { AppError } from '../../shared/errors.js';
import { kindOfTarget, type ProviderInfo, type ProviderTestResult } from '../../shared/contract.js';
import type { SecretBook } from '../providers/redact.js';
import { redactingProvider } from '../providers/redacting-provider.js';
import type { Provider, ProviderConfig, ProviderListing } from '../providers/types.js';
import type { ModelCache } from './model-cache.js';
import { modelCapabilities } from './model-capabilities.js';
import type { ProviderPool } from '../scheduler/ports.js';
import type { InstanceHealthView } from '../scheduler/instance-health.js';
import { connectionOf, type ProviderOutcomes } from './provider-outcomes.js';
import type { ProviderDefaults, SettingsService } from './settings-service.js';

/** Hard bound on any provider response body or stream (no unbounded buffering). */
export const DEFAULT_MAX_RESPONSE_BYTES = 128 * 1024 * 1024;

/** One server Atelier can send work to: the first of its kind (id = kind) or one added beside it. */
export interface InstanceRef {
  id: string;
  kind: string;
  name: string;
  /** Added with providers.add (only those can be removed). */
  added: boolean;
}

/** The registry the engine uses; the scheduler sees it through the narrower ProviderPool it declares. */
export interface ProviderRegistry extends ProviderPool {
  ids(): string[];
  get(id: string): Provider;
  /** Settings + decrypted secrets for one call; secrets exist only in this object, never in job JSON or logs. */
  config(id: string): Promise<ProviderConfig>;
  /**
   * The provider, its config, and a check that it is enabled and configured. An `any:<kind>` target answers with a
   * representative instance (enabled, set up, answering, with the model when one is asked): what submit validates against.
   */
  ready(target: string, model?: string): Promise<{ provider: Provider; config: ProviderConfig }>;
  list(): Promise<ProviderInfo[]>;
  info(id: string): Promise<ProviderInfo>;
  test(id: string): Promise<ProviderTestResult>;
  instances(): InstanceRef[];
  kindOf(id: string): string | undefined;
  /** Without the keyring (the scheduler asks on every pass): on, and everything it needs is stored. */
  placeable(id: string): boolean;
  /** A new instance of a kind: its own provider object from the kind's factory, its own settings. */
  add(input: {
    kind: string;
    name: string;
    baseUrl?: string | undefined;
    concurrency?: number | undefined;
  }): Promise<InstanceRef>;
  /** Forgets an added instance (settings, secrets); the first of a kind stays. */
  remove(id: string): Promise<InstanceRef>;
  /** Releases what added instances hold (the first instances are closed by their entries). */
  close(): Promise<void>;
}

export interface ProviderEntry {
  provider: Provider;
  defaults: ProviderDefaults[string];
  /** Releases what the provider holds (e.g. the builtin's worker threads). */
  close?: () => Promise<void> | void;
  /** Ready whenever it is on: nothing to connect to, nothing to test (the builtin). */
  alwaysReady?: boolean;
  /** The most jobs one instance may run at once, whatever its concurrency setting says (the API's own limit). */
  maxConcurrency?: number;
  /** Makes another provider object of this kind (its own state); absent: the kind has a single instance. */
  create?: () => { provider: Provider; close?: () => Promise<void> | void };
}

interface Instance extends InstanceRef {
  provider: Provider;
  alwaysReady: boolean;
  close?: () => Promise<void> | void;
}

export function createProviderRegistry(
  entries: ProviderEntry[],
  settings: SettingsService,
  options: {
    maxResponseBytes?: number;
    secrets?: SecretBook;
    models?: ModelCache;
    outcomes?: ProviderOutcomes;
    instanceHealth?: InstanceHealthView;
    now?: () => number;
  } = {},
): ProviderRegistry {
  // Every caller (ready, list, test) gets the provider behind the redacting boundary, never the bare one.
  const guard = (provider: Provider): Provider => redactingProvider(provider, (s) => options.secrets?.add(s));
  const kinds = new Map(entries.map((e) => [e.provider.id, e]));
  const byId = new Map<string, Instance>(
    entries.map((e) => [
      e.provider.id,
      {
        id: e.provider.id,
        kind: e.provider.id,
        name: e.provider.name,
        added: false,
        provider: guard(e.provider),
        alwaysReady: e.alwaysReady === true,
      },
    ]),
  );
  const now = options.now ?? Date.now;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;

  const instantiate = (ref: { id: string; kind: string; name: string }): Instance | undefined => {
    const entry = kinds.get(ref.kind);
    if (entry?.create === undefined) return undefined;
    const made = entry.create();
    // The kind's provider answers to the instance's id and name: traces, caches and health are per instance.
    const provider: Provider = { ...made.provider, id: ref.id, name: ref.name };
    const instance: Instance = {
      ...ref,
      added: true,
      provider: guard(provider),
      alwaysReady: entry.alwaysReady === true,
    };
    if (made.close !== undefined) instance.close = made.close;
    return instance;
  };
  for (const stored of settings.current().instances) {
    const instance = instantiate(stored);
    if (instance !== undefined) byId.set(instance.id, instance);
  }

  const instance = (id: string): Instance => {
    const found = byId.get(id);
    if (found === undefined) {
      throw new AppError('invalid_request', `There is no provider called “${id}”. Choose one from the list.`, {
        details: { fields: { provider: 'Unknown provider.' } },
      });
    }
    return found;
  };
  const get = (id: string): Provider => instance(id).provider;

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

  // The stored settings as a config, secrets stood in for by their has-flags: enough to ask isConfigured().
  const placeable = (id: string): boolean => {
    const found = byId.get(id);
    const s = settings.provider(id);
    if (found === undefined || s === undefined || !s.enabled) return false;
    const c: ProviderConfig = { timeoutMs: s.timeoutMs, maxResponseBytes };
    if (s.baseUrl !== undefined) c.baseUrl = s.baseUrl;
    if (s.model !== undefined) c.model = s.model;
    if (s.username !== undefined) c.username = s.username;
    if (s.workflow !== undefined) c.workflow = s.workflow;
    if (s.hasApiKey) c.apiKey = 'stored';
    if (s.hasPassword) c.password = 'stored';
    return found.provider.isConfigured(c);
  };

  const readyOne = async (id: string): Promise<{ provider: Provider; config: ProviderConfig }> => {
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
  };

  const noneReady = async (kind: string): Promise<never> => {
    const first = ofKind(kind)[0];
    if (first === undefined) {
      throw new AppError('invalid_request', `Atelier has no ${kind} provider to send this to.`, {
        details: { fields: { provider: 'Unknown kind.' } },
      });
    }
    // None is usable: the first one's own reason (turned off, not set up) says what to do.
    await readyOne(first.id);
    throw new AppError('invalid_request', `No ${first.name} server is turned on and set up.`, {
      details: { fields: { provider: 'None set up.' } },
    });
  };

  const ofKind = (kind: string): Instance[] => [...byId.values()].filter((i) => i.kind === kind);

  // Answering beats down, and a server that lists the model beats one that does not: the job will go there.
  const representative = (kind: string, model: string | undefined): Instance | undefined => {
    const usable = ofKind(kind).filter((i) => placeable(i.id));
    const score = (i: Instance): number => {
      const down = options.instanceHealth?.view(i.id).state === 'down' ? 2 : 0;
      const listed = options.models?.get(i.id)?.models;
      const lacks = model !== undefined && listed !== undefined && listed.length > 0 && !listed.includes(model) ? 1 : 0;
      return down + lacks;
    };
    return usable.sort((a, b) => score(a) - score(b))[0];
  };

  // Enabled, set-up providers whose model list comes from their server: a listing refreshes a stale one.
  const listTargets = async () => {
    const targets = [];
    for (const { provider } of byId.values()) {
      if (provider.listsModels !== true || settings.provider(provider.id)?.enabled !== true) continue;
      const c = await config(provider.id);
      if (provider.isConfigured(c))
        targets.push({
          id: provider.id,
          fetch: () => provider.test(c, AbortSignal.timeout(Math.min(c.timeoutMs, 30_000))),
        });
    }
    return targets;
  };

  const info = async (id: string): Promise<ProviderInfo> => {
    const { provider, kind, alwaysReady } = instance(id);
    const c = await config(id);
    const s = settings.provider(id);
    const result: ProviderInfo = {
      id,
      kind: kind as ProviderInfo['kind'],
      name: provider.name,
      concurrency: s?.concurrency ?? 1,
      health: options.instanceHealth?.view(id) ?? { state: 'unknown', running: [] },
      enabled: s?.enabled ?? false,
      configured: provider.isConfigured(c),
      capabilities: provider.capabilities(c),
      models: options.models?.merged(id, provider.knownModels(c)) ?? provider.knownModels(c),
      status: options.outcomes?.status(id, {
        enabled: s?.enabled ?? false,
        alwaysReady,
        connection: connectionOf(s),
      }) ?? { state: 'untested' },
    };
    // What each listed model can do, where it differs: the composer's form and the viewer's buttons follow the model.
    const { capabilitiesByModel, operationsByModel } = modelCapabilities(
      provider,
      c,
      result.models,
      result.capabilities,
    );
    if (Object.keys(capabilitiesByModel).length > 0) result.capabilitiesByModel = capabilitiesByModel;
    if (Object.keys(operationsByModel).length > 0) result.operationsByModel = operationsByModel;
    const listedAt = options.models?.get(id)?.listedAt;
    if (listedAt !== undefined) result.modelsListedAt = listedAt;
    if (c.model !== undefined) result.defaultModel = c.model;
    return result;
  };

  return {
    ids: () => [...byId.keys()],
    get,
    config,
    // Not async itself: a named instance costs no more turns of the event loop than before instances existed.
    ready(target, model) {
      const kind = kindOfTarget(target);
      if (kind === undefined) return readyOne(target);
      const chosen = representative(kind, model);
      if (chosen !== undefined) return readyOne(chosen.id);
      return noneReady(kind);
    },

    async list() {
      await options.models?.refreshStale(await listTargets());
      const infos: ProviderInfo[] = [];
      for (const id of byId.keys()) infos.push(await info(id));
      return infos;
    },
    info,
    async test(id) {
      const provider = get(id);
      const c = await config(id);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), Math.min(c.timeoutMs, 30_000));
      let result: ProviderListing;
      try {
        result = await provider.test(c, controller.signal);
        if (result.ok && provider.listsModels === true)
          options.models?.put(id, result.models, result.upscalers, result.library);
      } catch (error) {
        const message = error instanceof AppError ? error.message : 'The connection test failed.';
        result = { ok: false, reachable: false, models: [], latencyMs: 0, message };
      } finally {
        clearTimeout(timer);
      }
      const secrets = [c.apiKey, c.password].filter((x): x is string => x !== undefined);
      options.outcomes?.record(id, {
        at: now(),
        ok: result.ok,
        source: 'test',
        message: result.message,
        secrets,
        connection: connectionOf(settings.provider(id)),
      });
      // Only "does it answer" moves the scheduler's view; a wrong key is the Settings status's to show.
      options.instanceHealth?.observe(id, result.ok || result.reachable, result.message);
      return result;
    },
    instances: () => [...byId.values()].map(({ id, kind, name, added }) => ({ id, kind, name, added })),
    kindOf: (id) => byId.get(id)?.kind,
    placeable,
    async add(input) {
      const entry = kinds.get(input.kind);
      if (entry === undefined) {
        throw new AppError('invalid_request', `Atelier has no ${input.kind} provider to add a server to.`, {
          details: { fields: { kind: 'Unknown kind.' } },
        });
      }
      if (entry.create === undefined) {
        throw new AppError(
          'invalid_request',
          `${entry.provider.name} has a single instance: another one cannot be added.`,
          { details: { fields: { kind: 'Single instance.' } } },
        );
      }
      const stored = await settings.addInstance(input);
      const made = instantiate(stored);
      if (made === undefined)
        throw new AppError('internal', `The new ${entry.provider.name} server could not be made.`);
      byId.set(made.id, made);
      return { id: made.id, kind: made.kind, name: made.name, added: true };
    },
    async remove(id) {
      const found = instance(id);
      if (!found.added) {
        throw new AppError(
          'invalid_request',
          `${found.name} is the first ${found.kind} server and stays: turn it off in Settings instead.`,
          {
            details: { fields: { id: 'The first instance of a kind cannot be removed.' } },
          },
        );
      }
      // Out of the scheduler's view before anything is awaited: no job is placed on it from here on.
      byId.delete(id);
      options.instanceHealth?.forget(id);
      await settings.removeInstance(id);
      await found.close?.();
      return { id, kind: found.kind, name: found.name, added: true };
    },
    async close() {
      for (const i of byId.values()) if (i.added) await i.close?.();
    },
  };
}
