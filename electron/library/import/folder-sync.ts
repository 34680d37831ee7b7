import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { LibraryFolder } from '../../../shared/contract.js';
import type { JobStore } from '../../db/types.js';
import type { Logger } from '../../base/logger.js';
import type { FolderWatcher, WatchBatch } from '../watch/index.js';
import type { Importer } from './importer.js';
import { isInside } from '../../base/paths.js';
import { scanFolder } from './scan-folder.js';

export interface FolderSyncDeps {
  store: JobStore;
  importer: Pick<Importer, 'importPaths' | 'markGone'>;
  log: Logger;
  /** Makes the watcher, given where batches go (the engine passes @parcel/watcher's; tests may pass their own). */
  createWatcher(onChanges: (batch: WatchBatch) => void): FolderWatcher;
  /** Paths never to scan, watch or import (the data dir). */
  skip: string[];
}

const CHUNK = 64;

/**
 * Keeps watched folders live: on start, what changed while Atelier was closed (the watcher's snapshot, or a full
 * scan when there is none); while running, each settled batch of new, changed and removed files. Work for one
 * folder runs in order, so a file's create and its later delete are never applied the other way round.
 */
export function createFolderSync(deps: FolderSyncDeps) {
  const { store, importer, log } = deps;
  const chains = new Map<string, Promise<void>>();
  const watched = new Set<string>();
  let closed = false;

  const inOrder = (folderId: string, work: () => Promise<void>): Promise<void> => {
    const next = (chains.get(folderId) ?? Promise.resolve())
      .then(work)
      .catch((error: unknown) =>
        log.error('a watched folder could not be brought up to date', { folderId, error: String(error) }),
      );
    chains.set(folderId, next);
    return next;
  };

  // As given and as real paths: a watched folder is stored by its real path.
  const skipped = Promise.all(
    deps.skip.map(async (dir) => [resolve(dir), await realpath(dir).catch(() => resolve(dir))]),
  ).then((pairs) => pairs.flat());

  const apply = async (folderId: string, given: string[], removed: string[]): Promise<void> => {
    const skip = await skipped;
    // The watcher leaves these out already; Atelier's own files are never imported as pictures, whatever reports them.
    const upserted = given.filter((path) => !skip.some((dir) => isInside(dir, path)));
    for (let i = 0; i < upserted.length; i += CHUNK) {
      if (closed) return;
      await importer.importPaths(folderId, upserted.slice(i, i + CHUNK));
      await yieldToLoop();
    }
    if (removed.length > 0) importer.markGone(removed);
  };

  const watcher = deps.createWatcher((batch) => {
    if (closed || !watched.has(batch.rootId)) return;
    void inOrder(batch.rootId, () => apply(batch.rootId, batch.upserted, batch.removed));
  });

  async function fullScan(folderId: string, root: string): Promise<void> {
    const unreadable = (dir: string): void =>
      log.warn('a folder inside a watched folder could not be read; its files are not imported', {
        folderId,
        path: dir,
      });
    for await (const files of scanFolder(root, await skipped, unreadable)) {
      if (closed) return;
      await apply(folderId, files, []);
    }
  }

  const settled = { caughtUp: Promise.resolve() };

  /** Subscribes; resolves once the watcher is live, with the catch-up (if asked) as its own promise. */
  async function subscribe(folderId: string, root: string, catchUp: boolean): Promise<{ caughtUp: Promise<void> }> {
    if (closed || watched.has(folderId)) return settled;
    watched.add(folderId);
    try {
      // Subscribed first: a file written while the catch-up runs is reported, not lost between the two.
      await watcher.watch(folderId, root, deps.skip);
    } catch (error) {
      // The watcher says what happened (gone, replaced by a link, the watch limit); a folder that is away is taken back when it returns.
      log.warn('could not watch a folder', {
        folderId,
        path: root,
        error: error instanceof Error ? error.message : String(error),
      });
      return settled;
    }
    return catchUp ? { caughtUp: catchUpOn(folderId, root) } : settled;
  }

  async function startWatching(folderId: string, root: string, catchUp: boolean): Promise<void> {
    await (
      await subscribe(folderId, root, catchUp)
    ).caughtUp;
  }

  async function unwatch(folderId: string): Promise<void> {
    watched.delete(folderId);
    await chains.get(folderId);
    await watcher.forget(folderId).catch(() => undefined);
  }

  function catchUpOn(folderId: string, root: string): Promise<void> {
    return inOrder(folderId, async () => {
      const changes = await watcher.changesSince(folderId, root, deps.skip).catch(() => null);
      if (changes === null) await fullScan(folderId, root);
      else await apply(folderId, changes.upserted, changes.removed);
      await watcher.checkpoint(folderId, root, deps.skip).catch(() => undefined);
    });
  }

  return {
    /** On start: every watched folder catches up on what changed while Atelier was closed, then stays live. */
    async start(): Promise<void> {
      for (const folder of store.imports.folderList()) {
        if (folder.watch && !folder.isFile) await startWatching(folder.id, folder.path, true);
      }
    },
    /** A folder just imported with watch on: live from now (its import reads what is there). */
    watch(folderId: string): void {
      const folder = store.imports.folder(folderId);
      if (folder !== null && !folder.isFile) void startWatching(folderId, folder.path, false);
    },
    /** Its import finished: the snapshot the next start compares with is taken now. */
    async checkpoint(folderId: string): Promise<void> {
      const folder = store.imports.folder(folderId);
      if (folder === null || !watched.has(folderId)) return;
      await inOrder(folderId, () => watcher.checkpoint(folderId, folder.path, deps.skip));
    },
    watchState(folderId: string): LibraryFolder['watchState'] {
      if (!watched.has(folderId)) return 'off';
      const status = watcher.status(folderId);
      return status === 'watching' ? 'watching' : status === 'failed' ? 'failed' : 'off';
    },
    unwatch,
    /**
     * Watch switched on later: live once this resolves, and what the folder gained while it was not watched is
     * imported in the background (`caughtUp`). Off: stopped once this resolves; its snapshot goes with it.
     */
    async setWatch(folderId: string, on: boolean): Promise<{ caughtUp: Promise<void> }> {
      if (!on) {
        await unwatch(folderId);
        return settled;
      }
      const folder = store.imports.folder(folderId);
      if (folder === null || folder.isFile) return settled;
      return subscribe(folderId, folder.path, true);
    },
    /** Settles queued work and records where each folder stands, so the next start sees only later changes. */
    async close(): Promise<void> {
      closed = true;
      await Promise.allSettled([...chains.values()]);
      for (const folder of store.imports.folderList()) {
        if (watched.has(folder.id)) await watcher.checkpoint(folder.id, folder.path, deps.skip).catch(() => undefined);
      }
      await watcher.close();
    },
  };
}

export type FolderSync = ReturnType<typeof createFolderSync>;
