import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { CHANNEL_NAMES, EVENT_NAMES, type Handlers } from '../../shared/contract.js';
import type { EngineEvents } from '../base/events.js';
import { isAppUrl } from '../desktop/app-url.js';
import { EVENT_IPC_CHANNELS } from '../host/channel-names.js';
import { dispatch, type UnexpectedErrorSink } from '../host/dispatch.js';

/** Only the app's own top-level frame may call: not a subframe, not a page navigated elsewhere. */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>): boolean {
  const frame = event.senderFrame;
  return frame !== null && frame.parent === null && isAppUrl(frame.url);
}

export interface IpcOptions {
  handlers: Handlers;
  events: EngineEvents;
  /** The window that receives engine events; null while there is none. */
  target: () => WebContents | null;
  onUnexpected?: UnexpectedErrorSink;
}

/** Registers exactly one handler per contract channel and forwards engine events; returns the undo. */
export function registerIpc(options: IpcOptions): () => void {
  for (const channel of CHANNEL_NAMES) {
    ipcMain.handle(channel, async (event, raw: unknown) => {
      if (!isTrustedSender(event)) {
        throw new Error(`Refused "${channel}" from a frame that is not the Atelier app.`);
      }
      return dispatch(options.handlers, channel, raw, options.onUnexpected);
    });
  }
  const unsubscribes = EVENT_NAMES.map((name) =>
    options.events.on(name, (payload) => {
      const target = options.target();
      if (target !== null && !target.isDestroyed()) target.send(EVENT_IPC_CHANNELS[name], payload);
    }),
  );
  return () => {
    for (const channel of CHANNEL_NAMES) ipcMain.removeHandler(channel);
    for (const unsubscribe of unsubscribes) unsubscribe();
  };
}
