/**
 * Fills in the perceptual hash of images stored before hashes existed (an upgraded library), from their stored
 * thumbnails, newest first, one at a time and slowly: it yields most of the machine while an import reads files.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { JobStore } from '../../db/types.js';
import type { Logger } from '../../base/logger.js';
import { resolveInsideDataDir } from '../../base/paths.js';
import { colourSignature, perceptualHash, type ColourSignature } from '../../media/perceptual-hash.js';
import { makeThumbnail } from '../../media/thumbnail.js';
import { imageSourceOf } from '../originals/image-source.js';
import type { OriginalReader } from '../originals/original-reader.js';

/** Atelier's thumbnails are a few dozen KB: anything far larger in their place is not one of them. */
const MAX_THUMB_BYTES = 16 * 1024 * 1024;

export interface HashBackfillDeps {
  dataDir: string;
  store: JobStore;
  log: Logger;
  /** The guarded read, for thumbnails and originals alike. */
  reader: Pick<OriginalReader, 'read' | 'use'>;
  record(imageId: string, hash: string): void;
  /** True while an import is reading files. */
  busy?(): boolean;
  /** Pause between two images (default 20 ms), and while an import runs (default 250 ms). */
  idleMs?: number;
  busyIdleMs?: number;
}

export function createHashBackfill(deps: HashBackfillDeps) {
  const { store, log } = deps;
  const thumbBytes = async (thumbPath: string): Promise<Uint8Array> => {
    const path = resolveInsideDataDir(deps.dataDir, thumbPath);
    if (path === null) throw new Error('The thumbnail path is not inside the data dir.');
    return (await deps.reader.read({ path, root: deps.dataDir, rootMayBeLink: true, maxBytes: MAX_THUMB_BYTES })).bytes;
  };
  let running: Promise<void> | null = null;
  let closed = false;
  let made = 0;

  /** One image's thumbnail: the stored one, else made in memory from the image itself (null: no such image). */
  async function thumbnailOf(imageId: string): Promise<Uint8Array | null> {
    const image = store.image(imageId);
    if (image === null) return null;
    if (image.thumbPath !== null) return thumbBytes(image.thumbPath);
    const source = imageSourceOf(deps.dataDir, store, imageId);
    if (source === null) return null;
    // The same input the stored hashes come from: the thumbnail's pixels.
    return deps.reader.use(source, (file) => makeThumbnail(file.bytes));
  }

  /** The hash of one image now: from its thumbnail, else from the image itself (thumbnailed in memory). */
  async function hashOne(imageId: string): Promise<string | null> {
    const thumb = await thumbnailOf(imageId);
    if (thumb === null) return null;
    const hash = await perceptualHash(thumb);
    deps.record(imageId, hash);
    return hash;
  }

  /** One image's mean colour and contrast, from the same thumbnail its hash was made from. */
  async function colourOne(imageId: string): Promise<ColourSignature | null> {
    const thumb = await thumbnailOf(imageId);
    return thumb === null ? null : colourSignature(thumb);
  }

  async function loop(): Promise<void> {
    // One walk down the ids per run: an image that cannot be read is passed over until the next start.
    let before: string | null = null;
    for (;;) {
      if (closed) return;
      const rows = store.similar.hashless(before, 32);
      if (rows.length === 0) return;
      for (const row of rows) {
        if (closed) return;
        before = row.imageId;
        try {
          deps.record(row.imageId, await perceptualHash(await thumbBytes(row.thumbPath)));
          made += 1;
        } catch (error) {
          log.warn('could not hash an image', {
            imageId: row.imageId,
            error: error instanceof Error ? error.message : String(error),
          });
        }
        await sleep(deps.busy?.() === true ? (deps.busyIdleMs ?? 250) : (deps.idleMs ?? 20));
      }
    }
  }

  return {
    hashOne,
    colourOne,
    start(): void {
      if (closed || running !== null) return;
      running = loop()
        .catch((error: unknown) => log.error('the hash pass stopped', { error: String(error) }))
        .finally(() => {
          running = null;
        });
    },
    made: () => made,
    /** Resolves when the current pass has finished (tests). */
    idle: async (): Promise<void> => {
      await running;
    },
    async close(): Promise<void> {
      closed = true;
      await running;
    },
  };
}
