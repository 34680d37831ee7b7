import { stat } from 'node:fs/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ImportStore } from '../../db/import-types.js';

export interface OriginalsCheck {
  checked: number;
  /** Originals no longer where they were: now marked missing (or dropped where the image is known elsewhere). */
  gone: number;
  /** Originals marked missing that are back: read again and marked present. */
  back: number;
}

const PAGE = 500;

/**
 * On start, after the window has its first page: looks at every known original outside the data dir, a page at a
 * time, and marks what changed while Atelier was closed. Nothing is ever dropped silently; nothing is written.
 */
export async function checkOriginals(
  imports: Pick<ImportStore, 'folderList' | 'locationsIn'>,
  act: { markGone(paths: string[]): void; importPaths(folderId: string, paths: string[]): Promise<void> },
): Promise<OriginalsCheck> {
  const out: OriginalsCheck = { checked: 0, gone: 0, back: 0 };
  for (const folder of imports.folderList()) {
    let after = '';
    for (;;) {
      const page = imports.locationsIn(folder.id, after, PAGE);
      if (page.length === 0) break;
      after = page[page.length - 1]!.path;
      const gone: string[] = [];
      const back: string[] = [];
      await Promise.all(
        page.map(async (location) => {
          const present = await stat(location.path).then(
            (s) => s.isFile(),
            () => false,
          );
          if (!present && !location.missing) gone.push(location.path);
          if (present && location.missing) back.push(location.path);
        }),
      );
      out.checked += page.length;
      out.gone += gone.length;
      out.back += back.length;
      if (gone.length > 0) act.markGone(gone);
      if (back.length > 0) await act.importPaths(folder.id, back);
      await yieldToLoop();
    }
  }
  return out;
}
