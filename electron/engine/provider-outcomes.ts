import type { JobSummary, ProviderStatus } from '../../shared/contract.js';
import type { JobStore } from '../db/types.js';
import { redact } from '../providers/http/errors.js';
import type { ProviderConfig } from '../providers/types.js';
import type { SettingsService } from './settings-service.js';
import type { Logger } from '../base/logger.js';
import type { EngineEvents } from '../base/events.js';

// The settings key predates the name ProviderOutcomes; existing libraries keep their stored outcomes.
const HEALTH_KEY = 'providerHealth';
const MAX_MESSAGE_CHARS = 300;
const PERSIST_EVERY_MS = 60_000;
/** Job failures that say the provider itself is down or refusing us (others are about the request). */
const DOWN_CODES: ReadonlySet<string> = new Set(['provider_unavailable', 'provider_auth']);

/** One provider's last seen outcome, kept in the settings table so it survives a restart. */
export interface ProviderOutcome {
  at: number;
  ok: boolean;
  source: 'test' | 'job';
  message: string;
  /** The connection settings it was seen with: a changed address or login makes it "not tested" again. */
  connection: string;
}

/** Each provider's last seen outcome (test or job), persisted; "health" is the scheduler's live up/down view. */
export interface ProviderOutcomes {
  /** Keeps an outcome unless a newer one is already kept (a late job must not undo a fresh test). */
  record(id: string, outcome: Omit<ProviderOutcome, 'message'> & { message: string; secrets: readonly string[] }): void;
  /** The outcome a finished job implies for its provider, or null when the job says nothing about it. */
  fromJob(job: JobSummary): { ok: boolean; message: string; at: number } | null;
  status(id: string, view: { enabled: boolean; alwaysReady: boolean; connection: string }): ProviderStatus;
}

/** Provider text is untrusted: secrets out, control characters out, bounded. */
function clean(message: string, secrets: readonly string[]): string {
  const plain = redact(message, secrets)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim();
  return plain.length > MAX_MESSAGE_CHARS ? `${plain.slice(0, MAX_MESSAGE_CHARS - 1)}…` : plain;
}

export function createProviderOutcomes(store: Pick<JobStore, 'getSetting' | 'setSetting'>): ProviderOutcomes {
  const stored = store.getSetting<Record<string, ProviderOutcome>>(HEALTH_KEY);
  const outcomes = new Map<string, ProviderOutcome>(Object.entries(stored ?? {}));
  let persistedAt = new Map<string, number>([...outcomes].map(([id, o]) => [id, o.at]));

  return {
    record(id, { secrets, ...outcome }) {
      const held = outcomes.get(id);
      if (held !== undefined && held.at > outcome.at) return;
      const next = { ...outcome, message: clean(outcome.message, secrets) };
      outcomes.set(id, next);
      // A run of successes changes only the time: one write a minute, not one per job in a burst.
      const same =
        held !== undefined &&
        held.ok === next.ok &&
        held.message === next.message &&
        held.source === next.source &&
        held.connection === next.connection;
      if (same && next.at - (persistedAt.get(id) ?? 0) < PERSIST_EVERY_MS) return;
      store.setSetting(HEALTH_KEY, Object.fromEntries(outcomes));
      persistedAt = new Map([...outcomes].map(([key, o]) => [key, o.at]));
    },
    fromJob(job) {
      // Only the event that finished the job: a later favourite or trash of an old job says nothing new.
      if (job.completedAt === undefined || job.updatedAt !== job.completedAt) return null;
      if (job.status === 'succeeded') return { ok: true, message: 'A job succeeded.', at: job.completedAt };
      if (job.status === 'failed' && job.error !== undefined && DOWN_CODES.has(job.error.code)) {
        return { ok: false, message: job.error.message, at: job.completedAt };
      }
      return null;
    },
    status(id, view) {
      if (!view.enabled) return { state: 'off' };
      if (view.alwaysReady) return { state: 'ready' };
      const held = outcomes.get(id);
      if (held === undefined || held.connection !== view.connection) return { state: 'untested' };
      if (held.ok) return { state: 'ready', at: held.at, source: held.source };
      return { state: 'failing', at: held.at, source: held.source, message: held.message };
    },
  };
}

/** Real jobs keep the status true between tests: a provider that went down shows Failing, one that works, Ready. */
export function trackJobOutcomes(deps: {
  events: EngineEvents;
  outcomes: ProviderOutcomes;
  registry: { config(id: string): Promise<ProviderConfig> };
  settings: Pick<SettingsService, 'provider'>;
  log: Logger;
}): () => void {
  return deps.events.on('jobs.changed', ({ job }) => {
    const outcome = deps.outcomes.fromJob(job);
    if (outcome === null) return;
    // A job for any of a kind says something about the instance that ran it, not about the kind.
    const id = job.instance ?? job.provider;
    if (deps.settings.provider(id) === undefined) return;
    const connection = connectionOf(deps.settings.provider(id));
    const keep = (secrets: readonly string[]): void =>
      deps.outcomes.record(id, { ...outcome, source: 'job', connection, secrets });
    // A success says nothing secret; only a failure's message needs the secrets to redact against.
    const secrets = outcome.ok
      ? Promise.resolve([])
      : deps.registry.config(id).then((c) => [c.apiKey, c.password].filter((x): x is string => x !== undefined));
    void secrets
      .then(keep)
      .catch((error: unknown) =>
        deps.log.warn('could not keep a provider status', { provider: id, error: String(error) }),
      );
  });
}

/** What a connection test depends on: a new address or login needs a new test. */
export function connectionOf(
  s: { baseUrl?: string; username?: string; hasApiKey: boolean; hasPassword: boolean } | undefined,
): string {
  return JSON.stringify([s?.baseUrl ?? '', s?.username ?? '', s?.hasApiKey ?? false, s?.hasPassword ?? false]);
}
