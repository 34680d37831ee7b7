import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Events, EventName } from '../../../shared/contract.js';
import { createEngine, type EngineTestSeams } from '../../../electron/engine/create-engine.js';
import { splitEngineOptions } from '../../fakes/engine-options.js';
import type { Keyring } from '../../../electron/base/keyring.js';
import type { Engine, EngineOptions } from '../../../electron/engine/types.js';

export function memoryKeyring(): Keyring & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    get: async (name) => values.get(name) ?? null,
    set: async (name, value) => {
      values.set(name, value);
    },
    delete: async (name) => {
      values.delete(name);
    },
  };
}

/** Test options plus the engine's own log and clock, which tests may watch or move. */
export type HarnessOptions = EngineTestSeams & Partial<Pick<EngineOptions, 'log' | 'clock' | 'providerDefaults'>>;

export interface Harness {
  dataDir: string;
  engine: Engine;
  events: Array<{ name: EventName; payload: Events[EventName] }>;
  open(options?: HarnessOptions): Promise<Engine>;
  cleanup(): Promise<void>;
}

/** An engine on a fresh temp data dir that records every event; `open` reopens it (a restart). */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dataDir = await mkdtemp(join(tmpdir(), 'atelier-engine-'));
  const keyring = memoryKeyring();
  const harness: Harness = {
    dataDir,
    engine: undefined as unknown as Engine,
    events: [],
    async open(next = options) {
      const mixed = splitEngineOptions(next);
      const engine = await createEngine(
        {
          dataDir,
          keyring,
          ...mixed.options,
        },
        {
          orphanGraceMs: 0,
          housekeepingDelayMs: 0,
          maintenanceIntervalMs: 0,
          retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 50 },
          ...mixed.seams,
        },
      );
      for (const name of ['jobs.changed', 'jobs.progress', 'jobs.removed'] as const) {
        engine.events.on(name, (payload) => harness.events.push({ name, payload }));
      }
      harness.engine = engine;
      return engine;
    },
    async cleanup() {
      await harness.engine?.close({ graceMs: 0 }).catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  await harness.open();
  return harness;
}

export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function waitForStatus(engine: Engine, id: string, statuses: string[], timeoutMs = 15_000) {
  return waitFor(async () => {
    const job = await engine.handlers['jobs.get']({ id });
    return statuses.includes(job.status) ? job : undefined;
  }, timeoutMs);
}
