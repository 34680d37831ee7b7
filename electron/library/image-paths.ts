import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { JobStore } from '../db/types.js';

export interface ImagePaths {
  /** Every file the store references (originals and thumbnails), for the orphan collection. */
  referenced: Set<string>;
  /** Image rows, for the missing-file check. */
  images: Array<{ id: string; path: string }>;
}

/**
 * Reads every image row's paths a page at a time, yielding to the event loop between pages: read in one go, 100,000
 * rows blocked it for ~300 ms, long enough to stall the window's first page and its scrolling.
 */
export async function collectImagePaths(
  store: Pick<JobStore, 'imagePathsPage'>,
  pageSize = 2_000,
): Promise<ImagePaths> {
  const referenced = new Set<string>();
  const images: Array<{ id: string; path: string }> = [];
  let after: string | null = null;
  for (;;) {
    const page = store.imagePathsPage(after, pageSize);
    for (const row of page) {
      if (row.thumbPath !== null) referenced.add(row.thumbPath);
      // A linked original lives outside the data dir: the folder scan, not library/'s listing, says if it is there.
      if (row.linked) continue;
      referenced.add(row.path);
      images.push({ id: row.id, path: row.path });
    }
    if (page.length < pageSize) return { referenced, images };
    after = page[page.length - 1]!.id;
    await yieldToLoop();
  }
}
