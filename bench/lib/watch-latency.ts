/**
 * How long a file written into a watched folder takes to be reported by the folder watcher: N files written one by
 * one (each waits for the previous report), the delay measured from the end of each write to its report.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createFolderWatcher } from '../../electron/library/watch/index.js';
import { percentile } from './engine-kit.js';

export interface WatchLatencyOptions {
  /** Files to write (default 30). */
  count?: number;
  /** Bytes per file (default 1 MB, the import bench's average). */
  fileBytes?: number;
  /** The watcher's settle time (default: the watcher's own). */
  settleMs?: number;
  /** A folder to write into (default: a fresh temp folder, removed afterwards). */
  root?: string;
  /** Longest wait for one report before the run fails (default 15 s). */
  timeoutMs?: number;
}

export interface WatchLatencyResult {
  /** Per file, ms from the end of its write to its report, in write order. */
  delaysMs: number[];
  p50: number;
  p95: number;
  max: number;
}

export async function measureWatchLatency(options: WatchLatencyOptions = {}): Promise<WatchLatencyResult> {
  const count = options.count ?? 30;
  const bytes = randomBytes(options.fileBytes ?? 1024 * 1024);
  const scratch = await mkdtemp(join(tmpdir(), 'atelier-watch-bench-'));
  const root = options.root ?? join(scratch, 'watched');
  await mkdir(root, { recursive: true });
  const reportedAt = new Map<string, number>();
  let wake: (() => void) | null = null;
  const watcher = createFolderWatcher({
    snapshotDir: join(scratch, 'snapshots'),
    ...(options.settleMs === undefined ? {} : { settleMs: options.settleMs }),
    onChanges(batch) {
      const now = performance.now();
      for (const path of batch.upserted) if (!reportedAt.has(path)) reportedAt.set(path, now);
      wake?.();
    },
  });
  const delaysMs: number[] = [];
  try {
    await watcher.watch('bench', root);
    for (let i = 0; i < count; i += 1) {
      const path = join(root, `bench-${Date.now()}-${i}.png`);
      await writeFile(path, bytes);
      const written = performance.now();
      const deadline = written + (options.timeoutMs ?? 15_000);
      while (!reportedAt.has(path)) {
        if (performance.now() > deadline)
          throw new Error(`${path} was not reported within ${options.timeoutMs ?? 15_000} ms`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
      delaysMs.push(reportedAt.get(path)! - written);
    }
  } finally {
    await watcher.close();
    await rm(scratch, { recursive: true, force: true });
  }
  return { delaysMs, p50: percentile(delaysMs, 50), p95: percentile(delaysMs, 95), max: Math.max(...delaysMs) };
}
