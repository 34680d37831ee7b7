import { stat } from 'node:fs/promises';
import { isAbsolute, resolve, sep } from 'node:path';
import watcher from '@parcel/watcher';
import { AppError } from '../../../shared/errors.js';
import { SettleQueue, type SettleOutcome } from './settle.js';
import { assertFolder, readChangesSince, removeRootSnapshot, snapshotPath, writeRootSnapshot } from './snapshot.js';
import { DEFAULT_SETTLE_MS, type FolderWatcher, type FolderWatcherOptions, type WatchLog, type WatchStatus } from './types.js';

interface WatchedRoot {
  rootId: string;
  absRoot: string;
  status: WatchStatus;
  queue: SettleQueue;
  /** The root's subscription and one per folder moved in whole (the native watcher misses their sub-folders). */
  subscriptions: Map<string, watcher.AsyncSubscription>;
}

const silent: WatchLog = { info: () => {}, warn: () => {} };

const isUnder = (dir: string, path: string): boolean => path === dir || path.startsWith(dir + sep);

/**
 * Watches folders recursively with @parcel/watcher and reports settled file changes per root. Callbacks never
 * throw: a root whose watch breaks (deleted, drive gone) is logged and becomes 'failed'.
 */
export function createFolderWatcher(opts: FolderWatcherOptions): FolderWatcher {
  const settleMs = opts.settleMs ?? DEFAULT_SETTLE_MS;
  const log = opts.log ?? silent;
  const roots = new Map<string, WatchedRoot>();
  let closed = false;

  const unsubscribeAll = async (root: WatchedRoot): Promise<void> => {
    const subscriptions = [...root.subscriptions.values()];
    root.subscriptions.clear();
    // A vanished folder's watch cannot be removed cleanly (EINVAL); it is gone either way.
    await Promise.all(subscriptions.map((s) => s.unsubscribe().catch(() => undefined)));
  };

  const setStatus = (root: WatchedRoot, status: WatchStatus): void => {
    root.status = status;
    try {
      opts.onStatus?.(root.rootId, status);
    } catch (error) {
      log.warn('The watch status listener failed.', { rootId: root.rootId, error: String(error) });
    }
  };

  const fail = (root: WatchedRoot, reason: string): void => {
    if (root.status !== 'watching') return;
    root.queue.stop();
    log.warn('Atelier stopped watching a folder.', { rootId: root.rootId, root: root.absRoot, reason });
    setStatus(root, 'failed');
    void unsubscribeAll(root);
  };

  const listener = (root: WatchedRoot, dir: string) => (error: Error | null, events: watcher.Event[]): void => {
    try {
      if (root.status !== 'watching') return;
      if (error !== null) {
        if (dir === root.absRoot) fail(root, error.message);
        else void dropSubscription(root, dir);
        return;
      }
      for (const event of events) {
        if (event.type === 'delete' && event.path === root.absRoot) return fail(root, 'the folder was deleted or moved');
        if (event.type === 'delete' && event.path === dir && dir !== root.absRoot) void dropSubscription(root, dir);
        root.queue.touch(event.path);
      }
    } catch (caught) {
      log.warn('A folder event could not be handled.', { rootId: root.rootId, error: String(caught) });
    }
  };

  const dropSubscription = async (root: WatchedRoot, dir: string): Promise<void> => {
    const subscription = root.subscriptions.get(dir);
    root.subscriptions.delete(dir);
    await subscription?.unsubscribe().catch(() => undefined);
  };

  const addSubscription = async (root: WatchedRoot, dir: string): Promise<void> => {
    if ([...root.subscriptions.keys()].some((watched) => watched !== root.absRoot && isUnder(watched, dir))) return;
    try {
      const subscription = await watcher.subscribe(dir, listener(root, dir));
      if (root.status !== 'watching' || root.subscriptions.has(dir)) await subscription.unsubscribe().catch(() => undefined);
      else root.subscriptions.set(dir, subscription);
    } catch (error) {
      log.warn('A folder moved into a watched folder could not be watched.', { path: dir, error: String(error) });
    }
  };

  const settled = (root: WatchedRoot, outcome: SettleOutcome): void => {
    if (root.status !== 'watching') return;
    for (const dir of outcome.nestedDirs) void addSubscription(root, dir);
    if (outcome.upserted.length > 0 || outcome.removed.length > 0) {
      try {
        opts.onChanges({ rootId: root.rootId, upserted: outcome.upserted, removed: outcome.removed });
      } catch (error) {
        log.warn('The watched-folder change handler failed.', { rootId: root.rootId, error: String(error) });
      }
    }
    // Removals can be the root itself going away without an event of its own (moved out, drive unmounted).
    if (outcome.removed.length > 0) {
      stat(root.absRoot).then(
        (info) => (info.isDirectory() ? undefined : fail(root, 'the folder is no longer a folder')),
        () => fail(root, 'the folder was deleted or moved'),
      );
    }
  };

  const absolute = (absRoot: string): string => {
    if (!isAbsolute(absRoot)) throw new AppError('invalid_request', `A watched folder needs an absolute path (got ${absRoot}).`);
    return resolve(absRoot);
  };

  const unwatch = async (rootId: string): Promise<void> => {
    const root = roots.get(rootId);
    if (root === undefined) return;
    roots.delete(rootId);
    root.queue.stop();
    root.status = 'stopped';
    await unsubscribeAll(root);
  };

  return {
    async watch(rootId, rawRoot) {
      if (closed) throw new AppError('invalid_request', 'The folder watcher has been closed.');
      snapshotPath(opts.snapshotDir, rootId);
      const absRoot = absolute(rawRoot);
      const existing = roots.get(rootId);
      if (existing?.status === 'watching' && existing.absRoot === absRoot) return;
      await unwatch(rootId);
      const root: WatchedRoot = {
        rootId,
        absRoot,
        status: 'watching',
        subscriptions: new Map(),
        queue: new SettleQueue({
          root: absRoot,
          settleMs,
          onSettled: (outcome) => settled(root, outcome),
          warn: (message, fields) => log.warn(message, fields),
        }),
      };
      roots.set(rootId, root);
      try {
        await assertFolder(absRoot);
        const subscription = await watcher.subscribe(absRoot, listener(root, absRoot));
        if (root.status !== 'watching') {
          await subscription.unsubscribe().catch(() => undefined);
          return;
        }
        root.subscriptions.set(absRoot, subscription);
        log.info('Watching a folder.', { rootId, root: absRoot });
      } catch (error) {
        fail(root, String(error));
        if (error instanceof AppError) throw error;
        // Linux caps watched folders per user; a huge tree can exhaust it (the message names the setting to raise).
        const limit = /ENOSPC|inotify|watch limit/i.test(String(error));
        const why = limit ? ' The system limit on watched folders is reached (raise fs.inotify.max_user_watches).' : '';
        throw new AppError('storage', `Atelier could not watch ${absRoot}.${why}`, { cause: error });
      }
    },
    unwatch,
    async changesSince(rootId, rawRoot) {
      return readChangesSince(opts.snapshotDir, rootId, absolute(rawRoot), log);
    },
    async checkpoint(rootId, rawRoot) {
      await writeRootSnapshot(opts.snapshotDir, rootId, absolute(rawRoot));
    },
    async forget(rootId) {
      await unwatch(rootId);
      await removeRootSnapshot(opts.snapshotDir, rootId);
    },
    status(rootId) {
      return roots.get(rootId)?.status ?? 'stopped';
    },
    async close() {
      closed = true;
      await Promise.all([...roots.keys()].map((rootId) => unwatch(rootId)));
    },
  };
}

