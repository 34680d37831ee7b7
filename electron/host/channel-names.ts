/**
 * Channel names without zod, for the sandboxed preload (which bundles no validation: the main process validates).
 * The type assertions below fail to compile if this list and the contract ever drift apart.
 */
import type { ChannelName, EventName } from '../../shared/contract.js';

export const BRIDGE_CHANNELS = [
  'jobs.submit',
  'jobs.list',
  'jobs.get',
  'jobs.cancel',
  'jobs.retry',
  'jobs.setFavorite',
  'jobs.trash',
  'jobs.restore',
  'jobs.purge',
  'jobs.emptyTrash',
  'jobs.stats',
  'jobs.trashSummary',
  'jobs.previewRetention',
  'library.rebuild',
  'library.removeOrphans',
  'providers.list',
  'providers.test',
  'settings.get',
  'settings.update',
  'desktop.reveal',
  'desktop.copyImage',
  'desktop.saveAs',
  'desktop.startDrag',
  'desktop.pickImportPaths',
  'desktop.pickFolder',
  'desktop.droppedImages',
  'library.import',
  'library.imports',
  'library.cancelImport',
  'library.pauseImport',
  'library.resumeImport',
  'library.folders',
  'library.removeFolder',
  'library.location',
  'library.move.start',
  'library.move.status',
  'library.move.cancel',
  'library.deleteOldCopy',
  'library.retryLocation',
  'library.useLocation',
  'jobs.count',
  'images.setRating',
  'images.setFavorite',
  'images.trash',
  'images.restore',
  'images.tag',
  'images.undo',
  'tags.list',
  'tags.rename',
  'boards.list',
  'boards.create',
  'boards.rename',
  'boards.delete',
  'boards.add',
  'boards.remove',
  'search.suggest',
  'images.similar',
  'images.duplicates',
  'providers.add',
  'providers.remove',
  'presets.list',
  'presets.save',
  'presets.delete',
  'presets.importStyles',
  'prompts.history',
  'images.saveMask',
  'export.start',
  'export.list',
  'export.cancel',
  'updates.status',
  'updates.restart',
] as const satisfies readonly ChannelName[];

type MissingChannels = Exclude<ChannelName, (typeof BRIDGE_CHANNELS)[number]>;
// Compile-time proof that no contract channel is left out of the bridge.
export const BRIDGE_COVERS_CONTRACT: [MissingChannels] extends [never] ? true : MissingChannels = true;

/** The IPC channel on which the main process pushes each engine event (never an invoke channel name). */
export const EVENT_IPC_CHANNELS = {
  'jobs.changed': 'atelier:event:jobs.changed',
  'jobs.progress': 'atelier:event:jobs.progress',
  'jobs.removed': 'atelier:event:jobs.removed',
  'jobs.queue': 'atelier:event:jobs.queue',
  'library.importProgress': 'atelier:event:library.importProgress',
  'library.curated': 'atelier:event:library.curated',
  'export.progress': 'atelier:event:export.progress',
  'updates.status': 'atelier:event:updates.status',
} as const satisfies Record<EventName, string>;

/** The IPC channel on which the main process passes a menu command to the window. */
export const MENU_IPC_CHANNEL = 'atelier:menu';
