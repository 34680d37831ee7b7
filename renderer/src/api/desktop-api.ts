import { type AtelierBridge, EVENT_SUBSCRIPTIONS, MEDIA_SCHEME } from '../../../shared/bridge';
import type { ChannelName, ChannelOutput, ChannelRequest, EventName, Events } from '../../../shared/contract';
import { type Result, unwrap } from '../../../shared/errors';
import type { Api } from './types';

/** The Electron host: window.atelier from the preload; IPC never drops, so no reconnects. */
export function createDesktopApi(bridge: AtelierBridge): Api {
  return {
    host: 'desktop',
    async call<C extends ChannelName>(channel: C, input: ChannelRequest<C>): Promise<ChannelOutput<C>> {
      // The mapped bridge type loses the channel correlation inside a generic; the contract guarantees it.
      const method = bridge[channel] as unknown as (input: ChannelRequest<C>) => Promise<Result<ChannelOutput<C>>>;
      return unwrap(await method(input));
    },
    on<E extends EventName>(event: E, listener: (payload: Events[E]) => void) {
      const subscribe = bridge[EVENT_SUBSCRIPTIONS[event]] as (cb: (payload: Events[E]) => void) => () => void;
      return subscribe(listener);
    },
    onReconnect: () => () => undefined,
    onConnectionChange: () => () => undefined,
    mediaUrl: (kind, imageId) => `${MEDIA_SCHEME}://${kind}/${encodeURIComponent(imageId)}`,
    pathsForFiles: (files) => bridge.pathsForFiles(files),
    onMenuCommand: (listener) => bridge.onMenuCommand(listener),
  };
}
