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
  onImportProgress(listener: (payload: Events['library.importProgress']) => void): () => void;
}

export type AtelierBridge = BridgeMethods & BridgeEvents;

/** Maps each event to its bridge subscription method. */
export const EVENT_SUBSCRIPTIONS = {
  'jobs.changed': 'onJobChanged',
  'jobs.progress': 'onJobProgress',
  'jobs.removed': 'onJobsRemoved',
  'library.importProgress': 'onImportProgress',
} as const satisfies Record<keyof Events, keyof BridgeEvents>;

/** Media URL paths shared by both hosts: `atelier-media://<kind>/<id>` in Electron, `/media/<kind>/<id>` over HTTP. */
export const MEDIA_SCHEME = 'atelier-media';
export const MEDIA_KINDS = ['image', 'thumb', 'preview'] as const;
export type MediaKindName = (typeof MEDIA_KINDS)[number];
