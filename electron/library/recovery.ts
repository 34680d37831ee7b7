import type { RebuildResult, RecoveryStats } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import type { JobStore } from '../db/types.js';
import type { Logger } from '../base/logger.js';
import { collectImagePaths } from './image-paths.js';
import {
  LIBRARY_DIR,
  countOrphans,
  databaseLooksLost,
  nodeMediaFs,
  removeOrphans,
  shardedFiles,
  type OrphanCollection,
} from '../media/index.js';
import { rebuildFromFiles } from './rebuild-from-files.js';

export interface LibraryRecoveryDeps {
  dataDir: string;
  store: JobStore;
  log: Logger;
  now: () => number;
  /** Announces jobs the rebuild recreated. */
  announce(ids: string[]): void;
  /** Resolves once the start-up orphan collection is over: the rebuild never races it. */
  collectionDone(): Promise<void>;
}

/**
 * What the start-up check learnt about library/ (kept orphans, a database that looks lost) and the two things the
 * person may do about it: rebuild the history from the files, and remove the kept orphans for good.
 */
export function createLibraryRecovery(deps: LibraryRecoveryDeps) {
  const { dataDir, store, log } = deps;
  let recovery: RecoveryStats = { state: 'checking', libraryFiles: 0, unknownFiles: 0 };
  let orphans = { files: 0, bytes: 0 };
  let rebuilding: Promise<RebuildResult> | null = null;

  const refreshOrphans = async (): Promise<void> => {
    const counted = await countOrphans(dataDir);
    orphans = { files: counted.files, bytes: counted.bytes };
  };

  /** After a rebuild: files it could not read are not offered again (this session; they stay where they are). */
  const census = async (unreadable: number): Promise<void> => {
    const { referenced } = await collectImagePaths(store);
    const files = await shardedFiles(nodeMediaFs, dataDir, LIBRARY_DIR);
    const unknown = files.filter((rel) => !referenced.has(rel)).length;
    const lost = databaseLooksLost(files.length - unreadable, Math.max(0, unknown - unreadable));
    recovery = { state: lost ? 'needed' : 'ok', libraryFiles: files.length, unknownFiles: unknown };
  };

  return {
    stats: () => ({ recovery, orphans }),

    /** Takes in the start-up orphan collection's findings, and says what it did (and did not do) in the log. */
    async afterCollection(collection: OrphanCollection): Promise<void> {
      // Counted before the state leaves 'checking': a settled state means every number is in.
      await refreshOrphans();
      recovery = {
        state: collection.held ? 'needed' : 'ok',
        libraryFiles: collection.libraryFiles,
        unknownFiles: collection.unreferencedLibraryFiles,
      };
      if (collection.held) {
        log.warn(
          'the database knows fewer than half of the files in library/: nothing was swept; rebuild the history from the files',
          {
            libraryFiles: collection.libraryFiles,
            unknownFiles: collection.unreferencedLibraryFiles,
          },
        );
      }
      if (collection.moved.length > 0)
        log.info('moved orphan files to orphans/', { count: collection.moved.length, bytes: collection.bytesMoved });
      if (collection.tmpRemoved > 0) log.info('removed stale temp files', { count: collection.tmpRemoved });
      if (collection.failed > 0)
        log.warn('could not move some orphan files aside; they stay where they are', { count: collection.failed });
    },

    rebuild(): Promise<RebuildResult> {
      if (rebuilding !== null)
        throw new AppError('conflict', 'The history is already being rebuilt from the files: wait for it to finish.');
      // Before the start-up check the orphan collection has yet to run: a rebuild then could race it for the same files.
      if (recovery.state === 'checking') {
        throw new AppError('conflict', 'Atelier is still checking the library folder: try again in a few seconds.', {
          retryable: true,
        });
      }
      const previous = recovery;
      recovery = { ...recovery, state: 'rebuilding' };
      rebuilding = (async () => {
        try {
          await deps.collectionDone();
          const outcome = await rebuildFromFiles({ dataDir, store, now: deps.now, onBatch: deps.announce });
          log.info('rebuilt the history from library files', {
            jobs: outcome.jobs,
            images: outcome.images,
            known: outcome.known,
            unreadable: outcome.unreadable,
          });
          await census(outcome.unreadable);
          // Files the orphan collection had set aside may be back in library/ now.
          await refreshOrphans();
          return { jobs: outcome.jobs, images: outcome.images, known: outcome.known, unreadable: outcome.unreadable };
        } catch (error) {
          recovery = previous;
          throw error;
        } finally {
          rebuilding = null;
        }
      })();
      return rebuilding;
    },

    async removeOrphans(expectedCount: number): Promise<{ removed: number; bytesFreed: number }> {
      try {
        const result = await removeOrphans(dataDir, expectedCount);
        if (result.removed > 0)
          log.info("removed orphan files at the person's request", { count: result.removed, bytes: result.bytesFreed });
        return result;
      } finally {
        await refreshOrphans();
      }
    },
  };
}

export type LibraryRecovery = ReturnType<typeof createLibraryRecovery>;
