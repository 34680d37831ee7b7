import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isIgnoredName, isIgnoredPath } from './ignore.js';
import { isUnder } from './snapshot.js';

interface Pending {
  lastEventAt: number;
  /** Bumped by every event: a stat that started before the latest event decides nothing. */
  generation: number;
  /** The last stat, when a file was still changing (or its mtime could not be trusted) at its check. */
  seen?: { size: number; mtimeMs: number; at: number };
  recheckAt: number;
}

export interface SettleOutcome {
  upserted: string[];
  removed: string[];
  /** New folders that hold sub-folders of their own (moved or copied in whole); their files were queued. */
  nestedDirs: string[];
}

export interface SettleQueueOptions {
  root: string;
  /** Folders below the root whose files are never reported (the data dir: Atelier's own files are not imports). */
  excluded?: readonly string[];
  settleMs: number;
  /** Called once per tick that settled anything; never with an empty outcome. */
  onSettled(outcome: SettleOutcome): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** Stats at once per tick: enough to keep the disk busy, few enough not to exhaust file handles. */
const STAT_CONCURRENCY = 32;

const isGone = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/**
 * Coalesces file events per path and reports each path once it has settled: no event for settleMs, and its size and
 * mtime unchanged for settleMs (a file still being written is not reported). One tick settles every due path, so a
 * burst of events makes one batch; ticks are at least settleMs/2 apart.
 */
export class SettleQueue {
  private readonly pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private stopped = false;
  private lastTickAt = -Infinity;

  constructor(private readonly opts: SettleQueueOptions) {}

  /** A file event for this path (any type: whether it exists is decided by a stat at settle time). */
  touch(path: string, now = Date.now()): void {
    if (this.stopped || isIgnoredPath(this.opts.root, path) || this.isExcluded(path)) return;
    const entry = this.pending.get(path);
    if (entry === undefined) {
      this.pending.set(path, { lastEventAt: now, generation: 0, recheckAt: 0 });
    } else {
      entry.lastEventAt = now;
      entry.generation += 1;
    }
    this.schedule();
  }

  /** Every file below the root, reported as if just written: a folder that came back is read again whole. */
  touchAll(): void {
    if (this.stopped) return;
    void this.queueTree(this.opts.root)
      .catch((error: unknown) =>
        this.opts.warn('A folder that came back could not be listed.', { root: this.opts.root, error: String(error) }),
      )
      .finally(() => this.schedule());
  }

  private isExcluded(path: string): boolean {
    return (this.opts.excluded ?? []).some((dir) => isUnder(dir, path));
  }

  /** Drops everything pending; later events and in-flight stats report nothing. */
  stop(): void {
    this.stopped = true;
    this.pending.clear();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  get size(): number {
    return this.pending.size;
  }

  private dueAt(entry: Pending): number {
    return Math.max(entry.lastEventAt + this.opts.settleMs, entry.recheckAt);
  }

  private schedule(): void {
    if (this.stopped || this.running || this.timer !== null || this.pending.size === 0) return;
    let next = Infinity;
    for (const entry of this.pending.values()) next = Math.min(next, this.dueAt(entry));
    // The grace gathers a burst's later events into the same tick: one batch per burst, not one per file.
    const at = Math.max(next + this.opts.settleMs / 4, this.lastTickAt + this.opts.settleMs / 2);
    this.timer = setTimeout(
      () => {
        this.timer = null;
        void this.tick();
      },
      Math.max(0, at - Date.now()),
    );
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.running = true;
    const now = Date.now();
    this.lastTickAt = now;
    const outcome: SettleOutcome = { upserted: [], removed: [], nestedDirs: [] };
    const newDirs: string[] = [];
    try {
      const due = [...this.pending].filter(([, entry]) => this.dueAt(entry) <= now);
      for (let i = 0; i < due.length && !this.stopped; i += STAT_CONCURRENCY) {
        await Promise.all(
          due.slice(i, i + STAT_CONCURRENCY).map(([path, entry]) => this.settle(path, entry, outcome, newDirs)),
        );
      }
      // A new folder's files may predate its watch (moved or copied in whole): list them as events of their own.
      for (const dir of newDirs) if (await this.queueTree(dir)) outcome.nestedDirs.push(dir);
    } catch (error) {
      this.opts.warn('The folder watcher could not check changed files.', {
        root: this.opts.root,
        error: String(error),
      });
    } finally {
      this.running = false;
    }
    if (this.stopped) return;
    if (outcome.upserted.length > 0 || outcome.removed.length > 0 || outcome.nestedDirs.length > 0)
      this.opts.onSettled(outcome);
    this.schedule();
  }

  private async settle(path: string, entry: Pending, outcome: SettleOutcome, newDirs: string[]): Promise<void> {
    const generation = entry.generation;
    let info: Stats;
    try {
      info = await lstat(path);
      if (info.isSymbolicLink()) {
        info = await stat(path);
        // A link to a folder is not followed: it could lead out of the root or into a loop.
        if (info.isDirectory()) return this.drop(path, generation);
      }
    } catch (error) {
      if (this.pending.get(path)?.generation !== generation) return;
      this.pending.delete(path);
      if (isGone(error)) outcome.removed.push(path);
      else this.opts.warn('A changed file could not be read.', { path, error: String(error) });
      return;
    }
    if (this.pending.get(path)?.generation !== generation) return;
    if (info.isDirectory()) {
      this.pending.delete(path);
      newDirs.push(path);
      return;
    }
    if (!info.isFile()) return this.drop(path, generation);
    const now = Date.now();
    const { size, mtimeMs } = info;
    // Any write moves mtime, so an mtime settleMs old means no write since; a clock-skewed mtime falls back to two stats.
    const quietByMtime = now - mtimeMs >= this.opts.settleMs && mtimeMs <= now;
    const seen = entry.seen;
    const sameAsSeen = seen !== undefined && seen.size === size && seen.mtimeMs === mtimeMs;
    if (quietByMtime || (sameAsSeen && now - seen.at >= this.opts.settleMs)) {
      this.pending.delete(path);
      outcome.upserted.push(path);
      return;
    }
    if (!sameAsSeen) entry.seen = { size, mtimeMs, at: now };
    entry.recheckAt = now + this.opts.settleMs / 2;
  }

  private drop(path: string, generation: number): void {
    if (this.pending.get(path)?.generation === generation) this.pending.delete(path);
  }

  /**
   * Queues every file under a new folder, due at once (their mtimes still guard half-written ones). True when the
   * folder holds sub-folders.
   */
  private async queueTree(dir: string): Promise<boolean> {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (!isGone(error)) this.opts.warn('A new folder could not be listed.', { path: dir, error: String(error) });
      return false;
    }
    let nested = false;
    const dueNow = Date.now() - this.opts.settleMs;
    for (const entry of entries) {
      if (this.stopped) return nested;
      const path = join(dir, entry.name);
      if (isIgnoredName(entry.name) || this.isExcluded(path)) continue;
      if (entry.isDirectory()) {
        nested = true;
        await this.queueTree(path);
      } else if (!this.pending.has(path)) this.pending.set(path, { lastEventAt: dueNow, generation: 0, recheckAt: 0 });
    }
    return nested;
  }
}
