import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEngine, type ConnectDeps } from '../../../electron/engine/discovery/connect.js';
import { pointsAtPort } from '../../../electron/engine/discovery/same-address.js';
import type { StoredProviderSettings } from '../../../electron/engine/settings-service.js';
import type { ProviderInfo, ProviderTestResult, SettingsPatch } from '../../../shared/contract.js';
import { startLocalEngine, type LocalServer } from '../../fakes/local-engines.js';

let comfy: LocalServer;
let swarm: LocalServer;
beforeAll(async () => {
  comfy = await startLocalEngine('comfyui', { version: '0.3.64' });
  swarm = await startLocalEngine('swarmui');
});
afterAll(async () => {
  await comfy.close();
  await swarm.close();
});

/** A registry and settings in memory: what connect reads and what it changed. */
function world(first: Partial<StoredProviderSettings>) {
  const stored: Record<string, StoredProviderSettings> = {
    comfyui: { enabled: false, timeoutMs: 1, concurrency: 1, hasApiKey: false, hasPassword: false, ...first },
  };
  const instances = [{ id: 'comfyui', kind: 'comfyui', name: 'ComfyUI', added: false }];
  const patches: SettingsPatch[] = [];
  const deps: ConnectDeps = {
    candidates: [
      { port: comfy.port, kind: 'comfyui', name: 'ComfyUI' },
      { port: swarm.port, kind: 'swarmui', name: 'SwarmUI' },
    ],
    kick: () => undefined,
    settings: {
      provider: (id) => stored[id],
      update: async (patch) => {
        patches.push(patch);
        for (const [id, p] of Object.entries(patch.providers ?? {})) {
          const { baseUrl: _old, ...rest } = stored[id]!;
          stored[id] = { ...rest, enabled: p.enabled ?? rest.enabled, ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}) };
        }
        return {} as never;
      },
    },
    providers: {
      instances: () => instances,
      add: async ({ kind, name, baseUrl }) => {
        const ref = { id: `${kind}-2`, kind, name, added: true };
        instances.push(ref);
        stored[ref.id] = {
          enabled: false,
          timeoutMs: 1,
          concurrency: 1,
          hasApiKey: false,
          hasPassword: false,
          ...(baseUrl === undefined ? {} : { baseUrl }),
        };
        return ref;
      },
      info: async (id) => ({ id, enabled: stored[id]!.enabled }) as unknown as ProviderInfo,
      test: async () => ({ ok: true, reachable: true, models: [], latencyMs: 1, message: 'ok' }) as ProviderTestResult,
    },
  };
  return { deps, stored, patches, url: `http://127.0.0.1:${comfy.port}` };
}

describe('connecting a found engine', () => {
  it('takes the kind’s first server when it is off at the shipped address', async () => {
    const w = world({ baseUrl: 'http://127.0.0.1:8188' });
    const done = await connectEngine(w.deps, w.url);
    expect([done.created, done.provider.id]).toEqual([false, 'comfyui']);
    expect(w.stored['comfyui']).toMatchObject({ enabled: true, baseUrl: w.url });
  });

  it('adds a server beside a first one the person pointed elsewhere, even while it is off', async () => {
    const w = world({ baseUrl: 'http://192.168.1.20:8188' });
    const done = await connectEngine(w.deps, w.url);
    expect([done.created, done.provider.id]).toEqual([true, 'comfyui-2']);
    expect(w.stored['comfyui']).toMatchObject({ enabled: false, baseUrl: 'http://192.168.1.20:8188' });
    expect(w.stored['comfyui-2']).toMatchObject({ enabled: true, baseUrl: w.url });
  });

  it('adds a server beside a first one that is on, wherever it points', async () => {
    const w = world({ enabled: true, baseUrl: 'http://127.0.0.1:8188' });
    expect((await connectEngine(w.deps, w.url)).created).toBe(true);
  });

  it('reuses a server already at that address (localhost counts), turning it on', async () => {
    const w = world({ enabled: false, baseUrl: `http://localhost:${comfy.port}/` });
    const done = await connectEngine(w.deps, w.url);
    expect([done.created, done.provider.id]).toEqual([false, 'comfyui']);
  });

  it('refuses SwarmUI (named, not driven) and a port it does not look at, and changes nothing', async () => {
    const w = world({});
    await expect(connectEngine(w.deps, `http://127.0.0.1:${swarm.port}`)).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(connectEngine(w.deps, 'http://127.0.0.1:1')).rejects.toMatchObject({ code: 'invalid_request' });
    expect(w.patches).toEqual([]);
  });
});

describe('the same address', () => {
  it('is the loopback host at that port, by any of its names, at the server’s root', () => {
    expect(pointsAtPort('http://127.0.0.1:8188', 8188)).toBe(true);
    expect(pointsAtPort('http://localhost:8188/', 8188)).toBe(true);
    expect(pointsAtPort('http://[::1]:8188', 8188)).toBe(true);
    expect(pointsAtPort('http://127.0.0.1:8189', 8188)).toBe(false);
    expect(pointsAtPort('http://127.0.0.1:8188/proxy', 8188)).toBe(false);
    expect(pointsAtPort('https://127.0.0.1:8188', 8188)).toBe(false);
    expect(pointsAtPort('http://192.168.1.2:8188', 8188)).toBe(false);
    expect(pointsAtPort('not a url', 8188)).toBe(false);
    expect(pointsAtPort(undefined, 8188)).toBe(false);
  });
});
