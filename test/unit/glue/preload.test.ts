import type { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { BRIDGE_DESKTOP_METHODS, EVENT_SUBSCRIPTIONS, type AtelierBridge } from '../../../shared/bridge.js';
import { CHANNEL_NAMES } from '../../../shared/contract.js';
import { BRIDGE_CHANNELS } from '../../../electron/host/channel-names.js';

const electron = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invokes: [] as { channel: string; args: unknown[] }[],
  invokeResult: undefined as unknown,
  paths: new Map<unknown, string>(),
  bus: undefined as unknown as EventEmitter,
}));

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  electron.bus = new Emitter();
  return {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => electron.exposed.set(key, api) },
    webUtils: {
      getPathForFile: (file: unknown) => {
        const path = electron.paths.get(file);
        if (path === undefined) throw new Error('not a file from disk');
        return path;
      },
    },
    ipcRenderer: {
      invoke: (channel: string, ...args: unknown[]) => {
        electron.invokes.push({ channel, args });
        return electron.invokeResult instanceof Error
          ? Promise.reject(electron.invokeResult)
          : Promise.resolve(electron.invokeResult);
      },
      on: (channel: string, fn: (...a: unknown[]) => void) => electron.bus.on(channel, fn),
      removeListener: (channel: string, fn: (...a: unknown[]) => void) => electron.bus.removeListener(channel, fn),
    },
  };
});

await import('../../../electron/glue/preload.js');
const bus = (): EventEmitter => electron.bus;
const ID = '0190a6e2-0000-7000-8000-000000000001';

describe('preload bridge', () => {
  it('exposes only window.atelier', () => {
    expect([...electron.exposed.keys()]).toEqual(['atelier']);
  });

  const bridge = () => electron.exposed.get('atelier') as AtelierBridge;

  it('has exactly one method per contract channel plus the subscriptions and the desktop helpers', () => {
    const expected = [...CHANNEL_NAMES, ...Object.values(EVENT_SUBSCRIPTIONS), ...BRIDGE_DESKTOP_METHODS].sort();
    expect(Object.keys(bridge()).sort()).toEqual(expected);
    for (const key of expected) expect(typeof (bridge() as unknown as Record<string, unknown>)[key]).toBe('function');
  });

  it('keeps its zod-free channel list equal to the contract', () => {
    expect([...BRIDGE_CHANNELS].sort()).toEqual([...CHANNEL_NAMES].sort());
  });

  it('invokes the fixed channel of each method with the input unchanged', async () => {
    electron.invokes.length = 0;
    electron.invokeResult = { ok: true, value: { providers: [] } };
    await expect(bridge()['providers.list']({})).resolves.toEqual({ ok: true, value: { providers: [] } });
    for (const channel of CHANNEL_NAMES) {
      await (bridge()[channel] as (input: unknown) => Promise<unknown>)({ probe: channel });
    }
    expect(electron.invokes.slice(1)).toEqual(
      CHANNEL_NAMES.map((channel) => ({ channel, args: [{ probe: channel }] })),
    );
  });

  it('gives the paths of dropped files through webUtils, leaving out files that are not on disk', () => {
    const photo = { name: 'a.png' };
    const folder = { name: 'outputs' };
    const made = { name: 'made-by-the-page.png' };
    electron.paths.set(photo, '/home/me/a.png');
    electron.paths.set(folder, '/home/me/outputs');
    expect(bridge().pathsForFiles([photo, made, folder])).toEqual(['/home/me/a.png', '/home/me/outputs']);
  });

  it("passes the menu's known commands to the page, and nothing else", () => {
    const listener = vi.fn();
    const off = bridge().onMenuCommand(listener);
    bus().emit('atelier:menu', { sender: 'secret' }, 'import');
    bus().emit('atelier:menu', { sender: 'secret' }, 'rm -rf');
    expect(listener.mock.calls).toEqual([['import']]);
    off();
    bus().emit('atelier:menu', {}, 'import');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('turns a rejected invoke into a failure value, never a throw', async () => {
    electron.invokeResult = new Error('Refused');
    const result = await bridge()['jobs.get']({ id: ID });
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('delivers only the payload to subscribers, and each unsubscribe removes its own listener', () => {
    const first = vi.fn();
    const second = vi.fn();
    const offFirst = bridge().onJobProgress(first);
    const offSecond = bridge().onJobProgress(second);
    const removed = vi.fn();
    const offRemoved = bridge().onJobsRemoved(removed);
    const payload = { id: ID, stage: 'x', partialImages: 0 };
    bus().emit('atelier:event:jobs.progress', { sender: 'secret' }, payload);
    expect(first).toHaveBeenCalledWith(payload);
    expect(first.mock.calls[0]).toHaveLength(1);
    offFirst();
    bus().emit('atelier:event:jobs.progress', {}, payload);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(2);
    expect(removed).not.toHaveBeenCalled();
    offSecond();
    offRemoved();
    expect(bus().eventNames()).toEqual([]);
  });

  it("relays the updater's status to the page, and only its own", () => {
    const status = vi.fn();
    const off = bridge().onUpdateStatus(status);
    bus().emit('atelier:event:export.progress', {}, { id: ID });
    bus().emit('atelier:event:updates.status', { sender: 'secret' }, { state: 'ready', version: '0.2.0' });
    expect(status.mock.calls).toEqual([[{ state: 'ready', version: '0.2.0' }]]);
    off();
    expect(bus().eventNames()).toEqual([]);
  });

  it('routes each event to its own subscription', () => {
    const changed = vi.fn();
    const off = bridge().onJobChanged(changed);
    bus().emit('atelier:event:jobs.removed', {}, { ids: [ID] });
    expect(changed).not.toHaveBeenCalled();
    bus().emit('atelier:event:jobs.changed', {}, { job: { id: ID } });
    expect(changed).toHaveBeenCalledWith({ job: { id: ID } });
    off();
  });
});
