import type { ChannelName, ChannelOutput, ChannelRequest, EventName, Events } from '../../../shared/contract';
import type { MediaKindName, MenuCommand } from '../../../shared/bridge';

export type HostKind = 'desktop' | 'browser';
export type Unsubscribe = () => void;

/** The one door from the renderer to the engine; nothing else knows which host is on the other side. */
export interface Api {
  readonly host: HostKind;
  /** Calls a contract channel; a failure is thrown as an AppError. */
  call<C extends ChannelName>(channel: C, input: ChannelRequest<C>): Promise<ChannelOutput<C>>;
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): Unsubscribe;
  /** Fires when the event stream comes back after a drop: events may have been missed, so refetch. */
  onReconnect(listener: () => void): Unsubscribe;
  /** Fires when the link to the host goes down or comes back. */
  onConnectionChange(listener: (online: boolean) => void): Unsubscribe;
  mediaUrl(kind: MediaKindName, imageId: string): string;
  /** Where dropped files live on disk; the browser never says, so it answers none. */
  pathsForFiles(files: readonly File[]): string[];
  /** The desktop menu's commands (File → Import Folder…); the browser has no menu. */
  onMenuCommand(listener: (command: MenuCommand) => void): Unsubscribe;
}
