import { setTimeout as sleep } from 'node:timers/promises';
import type { JobStore } from '../../db/types.js';
import type { Logger } from '../../base/logger.js';
import { writeThumbnailAndHash } from '../../media/thumbnail.js';
import { imageSourceOf } from '../originals/image-source.js';
import type { OriginalReader } from '../originals/original-reader.js';

export interface ThumbnailerDeps {
  dataDir: string;
  store: JobStore;
  log: Logger;
  /** The guarded read: a file swapped for a pipe, a device or a link out is refused, never read or waited on. */
  reader: Pick<OriginalReader, 'use'>;
  announce(ids: string[]): void;
  /** True while an import is reading files: thumbnails then yield most of the machine to it. */
  busy?(): boolean;
  /** Pause between thumbnails while busy (default 100 ms: the first screens fill in while a big import runs). */
  busyIdleMs?: number;
  /** Records the perceptual hash made with the thumbnail (and keeps the similarity index current). */
  recordHash?(imageId: string, hash: string): void;
}

/**
 * Makes the thumbnails imported images are still waiting for, one at a time in the background (sharp works on its
 * own threads), newest first like the grid, and slowly while an import runs: on two cores a thumbnail costs about
 * as much as reading thirty files. The grid shows a placeholder until the job is announced again with its thumbnail.
 */
export function createThumbnailer(deps: ThumbnailerDeps) {
  const { store, log } = deps;
  const failed = new Set<string>();
  let running: Promise<void> | null = null;
  let closed = false;
  let again = false;
  let made = 0;

  async function one(imageId: string): Promise<string | null> {
    const source = imageSourceOf(deps.dataDir, store, imageId);
    if (source === null) return null;
    const { thumb, phash } = await deps.reader.use(source, (file) => writeThumbnailAndHash(deps.dataDir, file.bytes));
    const jobId = store.imports.setThumb(imageId, thumb.path);
    if (jobId !== null && phash !== null) deps.recordHash?.(imageId, phash);
    return jobId;
  }

  async function loop(): Promise<void> {
    do {
      again = false;
      for (;;) {
        if (closed) return;
        const rows = store.imports.thumbless(32).filter((r) => !failed.has(r.imageId));
        if (rows.length === 0) break;
        for (const row of rows) {
          if (closed) return;
          try {
            const jobId = await one(row.imageId);
            if (jobId === null) failed.add(row.imageId);
            else {
              made += 1;
              deps.announce([jobId]);
            }
          } catch (error) {
            // An original that is gone or not decodable keeps its placeholder; it is tried again next start.
            failed.add(row.imageId);
            log.warn('could not make a thumbnail', {
              imageId: row.imageId,
              error: error instanceof Error ? error.message : String(error),
            });
          }
          if (deps.busy?.() === true) await sleep(deps.busyIdleMs ?? 100);
        }
      }
    } while (again && !closed);
  }

  return {
    /** New images may be waiting: make their thumbnails (a run in progress picks them up). */
    kick(): void {
      if (closed) return;
      if (running !== null) {
        again = true;
        return;
      }
      running = loop()
        .catch((error: unknown) => log.error('the thumbnail queue stopped', { error: String(error) }))
        .finally(() => {
          running = null;
        });
    },
    made: () => made,
    async close(): Promise<void> {
      closed = true;
      await running;
    },
  };
}
