/**
 * Runs sandboxed, bundled into one CommonJS file: only 'electron' is required. It validates nothing (the main
 * process does) and exposes exactly the contract: one fixed channel per method, the event subscriptions, and two desktop helpers
 * (dropped files' paths, menu commands).
 */
import { contextBridge, ipcRenderer, webUtils, type IpcRenderer, type IpcRendererEvent } from 'electron';
import { EVENT_SUBSCRIPTIONS, MENU_COMMANDS, type AtelierBridge, type MenuCommand } from '../../shared/bridge.js';
import type { EventName } from '../../shared/contract.js';
import type { Result } from '../../shared/errors.js';
import { BRIDGE_CHANNELS, EVENT_IPC_CHANNELS, MENU_IPC_CHANNEL } from '../host/channel-names.js';

type IpcPort = Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;
type FilePaths = (file: File) => string;

const UNREACHABLE: Result<never> = {
  ok: false,
  error: { code: 'internal', message: 'The window could not reach Atelier’s main process.', retryable: true },
};

export function buildBridge(ipc: IpcPort, pathForFile: FilePaths): AtelierBridge {
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
  bridge.pathsForFiles = (files: readonly unknown[]): string[] => {
    const paths: string[] = [];
    for (const file of files) {
      // A File the page made itself (not from the disk) has no path: it is left out, never an error.
      try {
        const path = pathForFile(file as File);
        if (path !== '') paths.push(path);
      } catch {
        continue;
      }
    }
    return paths;
  };
  bridge.onMenuCommand = (listener: (command: MenuCommand) => void) => {
    const relay = (_event: IpcRendererEvent, command: unknown) => {
      if ((MENU_COMMANDS as readonly unknown[]).includes(command)) listener(command as MenuCommand);
    };
    ipc.on(MENU_IPC_CHANNEL, relay);
    return () => {
      ipc.removeListener(MENU_IPC_CHANNEL, relay);
    };
  };
  return bridge as unknown as AtelierBridge;
}

contextBridge.exposeInMainWorld(
  'atelier',
  buildBridge(ipcRenderer, (file) => webUtils.getPathForFile(file)),
);
