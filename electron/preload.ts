/**
 * Runs sandboxed, bundled into one CommonJS file: only 'electron' is required. It validates nothing (the main
 * process does) and exposes exactly the contract: one fixed channel per method, plus three subscriptions.
 */
import { contextBridge, ipcRenderer, type IpcRenderer, type IpcRendererEvent } from 'electron';
import { EVENT_SUBSCRIPTIONS, type AtelierBridge } from '../shared/bridge.js';
import type { EventName } from '../shared/contract.js';
import type { Result } from '../shared/errors.js';
import { BRIDGE_CHANNELS, EVENT_IPC_CHANNELS } from './host/channel-names.js';

type IpcPort = Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;

const UNREACHABLE: Result<never> = {
  ok: false,
  error: { code: 'internal', message: 'The window could not reach Atelier’s main process.', retryable: true },
};

export function buildBridge(ipc: IpcPort): AtelierBridge {
  const bridge: Record<string, unknown> = {};
  for (const channel of BRIDGE_CHANNELS) {
    bridge[channel] = (input: unknown) =>
      ipc.invoke(channel, input).catch(() => UNREACHABLE) as Promise<Result<unknown>>;
  }
  for (const [event, method] of Object.entries(EVENT_SUBSCRIPTIONS) as [EventName, string][]) {
    bridge[method] = (listener: (payload: unknown) => void) => {
      // The IPC event object (with its sender) never reaches the page: only the payload does.
      const relay = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
      ipc.on(EVENT_IPC_CHANNELS[event], relay);
      return () => {
        ipc.removeListener(EVENT_IPC_CHANNELS[event], relay);
      };
    };
  }
  return bridge as unknown as AtelierBridge;
}

contextBridge.exposeInMainWorld('atelier', buildBridge(ipcRenderer));
