import { watch as watchFs, type FSWatcher } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import watcher from '@parcel/watcher';
import { AppError } from '../../../shared/errors.js';
import { SettleQueue, type SettleOutcome } from './settle.js';
import {
  assertFolder,
  isUnder,
  nativeIgnore,
  readChangesSince,
  removeRootSnapshot,
  snapshotPath,
  writeRootSnapshot,
} from './snapshot.js';
import {
  DEFAULT_SETTLE_MS,
  type FolderWatcher,
  type FolderWatcherOptions,
  type WatchBatch,
  type WatchLog,
  type WatchStatus,
} from './types.js';

interface WatchedRoot {
  rootId: string;
  absRoot: string;
  /** Folders below the root never watched nor reported (the data dir). */
  excluded: string[];
  status: WatchStatus;
  queue: SettleQueue;
  /** The root's subscription and one per folder moved in whole (the native watcher misses their sub-folders). */
  subscriptions: Map<string, watcher.AsyncSubscription>;
  /** Set while the folder is away (deleted, replaced by a link, drive gone): ends the wait for its return. */
  stopWaiting: (() => void) | null;
}

const silent: WatchLog = { info: () => {}, warn: () => {} };

/** A folder that went away is also looked for this often: a drive mounted again may send no event where it appears. */
const RETURN_POLL_MS = 30_000;

/** Linux caps inotify watches per user; only that error (ENOSPC from inotify_add_watch) is blamed on the limit. */
const WATCH_LIMIT = /ENOSPC|No space left on device|max_user_watches/i;

const isRealFolder = (path: string): Promise<boolean> =>
  lstat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );

/** The excluded folders as they lie below this root: each as given and as its real path (the root is a real path). */
async function excludedUnder(absRoot: string, exclude: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const dir of exclude) {
    for (const candidate of [resolve(dir), await realpath(dir).catch(() => null)]) {
      if (candidate !== null && candidate !== absRoot && isUnder(absRoot, candidate)) found.add(candidate);
    }
  }
  return [...found];
}

/**
 * Watches folders recursively with @parcel/watcher and reports settled file changes per root. Callbacks never
 * throw: a root whose watch breaks is logged and becomes 'failed'. A root that goes away (deleted, moved, replaced by
 * a link, drive gone) is reported removed at once and watched for: once it is a real folder again it is watched again
 * and every file in it is reported.
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

  const report = (root: WatchedRoot, batch: WatchBatch): void => {
    try {
      opts.onChanges(batch);
    } catch (error) {
      log.warn('The watched-folder change handler failed.', { rootId: root.rootId, error: String(error) });
    }
  };

  const current = (root: WatchedRoot): boolean => !closed && roots.get(root.rootId) === root;

  const fail = (root: WatchedRoot, reason: string): void => {
    if (root.status !== 'watching') return;
    root.queue.stop();
    log.warn('Atelier stopped watching a folder.', { rootId: root.rootId, root: root.absRoot, reason });
    setStatus(root, 'failed');
    void unsubscribeAll(root);
    // Away rather than broken: its files are missing now (not at the next start), and it is watched for.
    void assertFolder(root.absRoot).then(
      () => undefined,
      (error: unknown) => {
        if (!current(root)) return;
        log.warn('A watched folder is away; Atelier takes it back when it is a folder again.', {
          rootId: root.rootId,
          root: root.absRoot,
          why: String((error as Error).message),
        });
        report(root, { rootId: root.rootId, upserted: [], removed: [root.absRoot] });
        awaitReturn(root);
      },
    );
  };

  /** Follows the nearest folder above the root (and a slow poll) until the root is a real folder again. */
  const awaitReturn = (root: WatchedRoot): void => {
    if (root.stopWaiting !== null) return;
    let stopped = false;
    let fsWatch: FSWatcher | null = null;
    let watchedDir = '';
    let checking = false;
    let again = false;
    /** True when it starts watching another folder: the root may have come back before that watch began. */
    const follow = async (): Promise<boolean> => {
      let dir = dirname(root.absRoot);
      while (!(await isRealFolder(dir)) && dirname(dir) !== dir) dir = dirname(dir);
      if (stopped || dir === watchedDir) return false;
      fsWatch?.close();
      fsWatch = null;
      watchedDir = '';
      try {
        fsWatch = watchFs(dir, { persistent: false }, () => void check());
        watchedDir = dir;
        // A folder above that breaks is followed again on the next poll.
        fsWatch.on('error', () => {
          fsWatch?.close();
          fsWatch = null;
          watchedDir = '';
        });
        return true;
      } catch {
        // Not watchable (gone meanwhile, no permission): the poll still looks.
        return false;
      }
    };
    const check = async (): Promise<void> => {
      if (checking) {
        again = true;
        return;
      }
      checking = true;
      try {
        do {
          again = false;
          if (stopped || !current(root)) return stop();
          if (await isRealFolder(root.absRoot)) {
            stop();
            if (current(root)) await comeBack(root);
            return;
          }
          // Looked again once the new watch is on: a folder made before it began sends it no event.
          if (await follow()) again = true;
        } while (again && !stopped);
      } catch (error) {
        log.warn('Looking for a watched folder that went away failed.', { rootId: root.rootId, error: String(error) });
      } finally {
        checking = false;
      }
    };
    const timer = setInterval(() => void check(), RETURN_POLL_MS);
    timer.unref();
    const stop = (): void => {
      stopped = true;
      clearInterval(timer);
      fsWatch?.close();
      fsWatch = null;
      if (root.stopWaiting === stop) root.stopWaiting = null;
    };
    root.stopWaiting = stop;
    void check();
  };

  /** The folder is a folder again: a fresh watch, and every file in it read again (known ones come back from missing). */
  const comeBack = async (away: WatchedRoot): Promise<void> => {
    const root = newRoot(away.rootId, away.absRoot, away.excluded);
    roots.set(root.rootId, root);
    try {
      await subscribe(root);
    } catch {
      // Logged by subscribe; if it went away again, it is awaited again.
      return;
    }
    if (!current(root) || root.status !== 'watching') return;
    log.info('A watched folder is back; Atelier watches it again.', { rootId: root.rootId, root: root.absRoot });
    setStatus(root, 'watching');
    root.queue.touchAll();
  };

  const listener =
    (root: WatchedRoot, dir: string) =>
    (error: Error | null, events: watcher.Event[]): void => {
      try {
        if (root.status !== 'watching') return;
        if (error !== null) {
          if (dir === root.absRoot) fail(root, error.message);
          else void dropSubscription(root, dir);
          return;
        }
        for (const event of events) {
          if (event.type === 'delete' && event.path === root.absRoot)
            return fail(root, 'the folder was deleted or moved');
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
      const subscription = await watcher.subscribe(dir, listener(root, dir), nativeIgnore(root.excluded));
      if (root.status !== 'watching' || root.subscriptions.has(dir))
        await subscription.unsubscribe().catch(() => undefined);
      else root.subscriptions.set(dir, subscription);
    } catch (error) {
      log.warn('A folder moved into a watched folder could not be watched.', { path: dir, error: String(error) });
    }
  };

  const settled = (root: WatchedRoot, outcome: SettleOutcome): void => {
    if (root.status !== 'watching') return;
    for (const dir of outcome.nestedDirs) void addSubscription(root, dir);
    if (outcome.upserted.length > 0 || outcome.removed.length > 0) {
      report(root, { rootId: root.rootId, upserted: outcome.upserted, removed: outcome.removed });
    }
    // Removals can be the root itself going away without an event of its own (moved out, unmounted, swapped for a link).
    if (outcome.removed.length > 0) {
      void isRealFolder(root.absRoot).then((there) =>
        there ? undefined : fail(root, 'the folder is gone or no longer a folder'),
      );
    }
  };

  const absolute = (absRoot: string): string => {
    if (!isAbsolute(absRoot))
      throw new AppError('invalid_request', `A watched folder needs an absolute path (got ${absRoot}).`);
    return resolve(absRoot);
  };

  const newRoot = (rootId: string, absRoot: string, excluded: string[]): WatchedRoot => {
    const root: WatchedRoot = {
      rootId,
      absRoot,
      excluded,
      status: 'watching',
      subscriptions: new Map(),
      stopWaiting: null,
      queue: new SettleQueue({
        root: absRoot,
        excluded,
        settleMs,
        onSettled: (outcome) => settled(root, outcome),
        warn: (message, fields) => log.warn(message, fields),
      }),
    };
    return root;
  };

  /** Subscribes the root; on failure it is failed (and awaited if away) and the error says what happened. */
  const subscribe = async (root: WatchedRoot): Promise<void> => {
    try {
      // A link in the root's place is refused before anything follows it.
      await assertFolder(root.absRoot);
      const subscription = await watcher.subscribe(
        root.absRoot,
        listener(root, root.absRoot),
        nativeIgnore(root.excluded),
      );
      if (root.status !== 'watching') {
        await subscription.unsubscribe().catch(() => undefined);
        return;
      }
      root.subscriptions.set(root.absRoot, subscription);
      log.info('Watching a folder.', { rootId: root.rootId, root: root.absRoot });
    } catch (error) {
      fail(root, error instanceof Error ? error.message : String(error));
      if (error instanceof AppError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      const why = WATCH_LIMIT.test(message)
        ? ' The system limit on watched folders is reached (raise fs.inotify.max_user_watches).'
        : ` (${message})`;
      throw new AppError('storage', `Atelier could not watch ${root.absRoot}.${why}`, { cause: error });
    }
  };

  const unwatch = async (rootId: string): Promise<void> => {
    const root = roots.get(rootId);
    if (root === undefined) return;
    roots.delete(rootId);
    root.stopWaiting?.();
    root.queue.stop();
    root.status = 'stopped';
    await unsubscribeAll(root);
  };

  return {
    async watch(rootId, rawRoot, exclude = []) {
      if (closed) throw new AppError('invalid_request', 'The folder watcher has been closed.');
      snapshotPath(opts.snapshotDir, rootId);
      const absRoot = absolute(rawRoot);
      const existing = roots.get(rootId);
      if (existing?.status === 'watching' && existing.absRoot === absRoot) return;
      await unwatch(rootId);
      const root = newRoot(rootId, absRoot, await excludedUnder(absRoot, exclude));
      roots.set(rootId, root);
      await subscribe(root);
    },
    unwatch,
    async changesSince(rootId, rawRoot, exclude = []) {
      const absRoot = absolute(rawRoot);
      return readChangesSince(opts.snapshotDir, rootId, absRoot, log, await excludedUnder(absRoot, exclude));
    },
    async checkpoint(rootId, rawRoot, exclude = []) {
      const absRoot = absolute(rawRoot);
      await writeRootSnapshot(opts.snapshotDir, rootId, absRoot, await excludedUnder(absRoot, exclude));
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
