import type { Logger } from '../../base/logger.js';

/** What changed under one watched root: absolute paths of files (never folders, except as noted on `removed`). */
export interface WatchBatch {
  rootId: string;
  /** Files created or changed whose size and mtime have settled. */
  upserted: string[];
  /** Paths that no longer exist. A folder removed or moved out as a whole (the root too) arrives as its own path. */
  removed: string[];
}

export type WatchStatus = 'watching' | 'failed' | 'stopped';

export type WatchLog = Pick<Logger, 'info' | 'warn'>;

export interface FolderWatcherOptions {
  /** Absolute folder inside the data dir where the per-root snapshots live; nothing is written anywhere else. */
  snapshotDir: string;
  /** Quiet time after a file's last event (and since its last write) before it is reported. */
  settleMs?: number;
  onChanges(batch: WatchBatch): void;
  /** Told when a root stops being watched on its own ('failed': deleted, moved, drive gone, watch error). */
  onStatus?(rootId: string, status: WatchStatus): void;
  log?: WatchLog;
}

/** `exclude`: folders never watched nor reported even where they lie inside the root (the data dir). */
export interface FolderWatcher {
  /**
   * Rejects when the folder cannot be watched now, saying why (gone, replaced by a link, the system's watch limit);
   * a folder that is away is still waited for, and watched (every file reported) once it is a folder again.
   */
  watch(rootId: string, absRoot: string, exclude?: readonly string[]): Promise<void>;
  unwatch(rootId: string): Promise<void>;
  /** Changes since the last checkpoint (made while Atelier was closed); null when there is none: scan in full. */
  changesSince(
    rootId: string,
    absRoot: string,
    exclude?: readonly string[],
  ): Promise<{ upserted: string[]; removed: string[] } | null>;
  /** Records the root's current state as the base for the next changesSince. */
  checkpoint(rootId: string, absRoot: string, exclude?: readonly string[]): Promise<void>;
  /** Stops watching the root and drops its snapshot (the folder was removed from the library). */
  forget(rootId: string): Promise<void>;
  status(rootId: string): WatchStatus;
  close(): Promise<void>;
}

export const DEFAULT_SETTLE_MS = 400;
