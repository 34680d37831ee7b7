/**
 * The shape of `window.atelier`, exposed by the preload: one method per contract channel (keyed by the channel
 * name) plus event subscriptions that return their own unsubscribe. Failures come back as values, never throws.
 */
import type { ChannelName, ChannelOutput, ChannelRequest, Events } from './contract.js';
import type { Result } from './errors.js';

export type BridgeMethods = {
  readonly [C in ChannelName]: (input: ChannelRequest<C>) => Promise<Result<ChannelOutput<C>>>;
};

export interface BridgeEvents {
  onJobChanged(listener: (payload: Events['jobs.changed']) => void): () => void;
  onJobProgress(listener: (payload: Events['jobs.progress']) => void): () => void;
  onJobsRemoved(listener: (payload: Events['jobs.removed']) => void): () => void;
  onQueueChanged(listener: (payload: Events['jobs.queue']) => void): () => void;
  onQueueControl(listener: (payload: Events['queue.control']) => void): () => void;
  onImportProgress(listener: (payload: Events['library.importProgress']) => void): () => void;
  onCurated(listener: (payload: Events['library.curated']) => void): () => void;
  onRereadProgress(listener: (payload: Events['library.rereadProgress']) => void): () => void;
  onExportProgress(listener: (payload: Events['export.progress']) => void): () => void;
  onUpdateStatus(listener: (payload: Events['updates.status']) => void): () => void;
}

/** What the desktop app's menu asks the window to do. */
export const MENU_COMMANDS = ['import'] as const;
export type MenuCommand = (typeof MENU_COMMANDS)[number];

/** Desktop-only helpers that are not engine channels. */
export interface BridgeDesktop {
  /**
   * The paths of files dropped on the window. Not a channel: a File cannot cross IPC, and since Electron 32 only the
   * preload (webUtils.getPathForFile) can see where a dropped file lives. Typed loosely: shared/ knows no DOM.
   */
  pathsForFiles(files: readonly unknown[]): string[];
  /** The application menu's commands (File → Import Folder…); returns its unsubscribe. */
  onMenuCommand(listener: (command: MenuCommand) => void): () => void;
}

export const BRIDGE_DESKTOP_METHODS = [
  'pathsForFiles',
  'onMenuCommand',
] as const satisfies readonly (keyof BridgeDesktop)[];

export type AtelierBridge = BridgeMethods & BridgeEvents & BridgeDesktop;

/** Maps each event to its bridge subscription method. */
export const EVENT_SUBSCRIPTIONS = {
  'jobs.changed': 'onJobChanged',
  'jobs.progress': 'onJobProgress',
  'jobs.removed': 'onJobsRemoved',
  'jobs.queue': 'onQueueChanged',
  'queue.control': 'onQueueControl',
  'library.importProgress': 'onImportProgress',
  'library.curated': 'onCurated',
  'library.rereadProgress': 'onRereadProgress',
  'export.progress': 'onExportProgress',
  'updates.status': 'onUpdateStatus',
} as const satisfies Record<keyof Events, keyof BridgeEvents>;

/** Media URL paths shared by both hosts: `atelier-media://<kind>/<id>` in Electron, `/media/<kind>/<id>` over HTTP. */
export const MEDIA_SCHEME = 'atelier-media';
export const MEDIA_KINDS = ['image', 'thumb', 'preview'] as const;
export type MediaKindName = (typeof MEDIA_KINDS)[number];
