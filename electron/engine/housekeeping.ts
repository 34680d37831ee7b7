import type { JobStore } from '../db/types.js';
import type { Logger } from '../base/logger.js';
import { checkOriginals } from '../library/import/originals-check.js';
import type { Importer } from '../library/import/importer.js';
import { collectImagePaths } from '../library/image-paths.js';
import type { LibraryRecovery } from '../library/recovery.js';
import { findMissingFiles, collectOrphans } from '../media/index.js';

export interface HousekeepingDeps {
  dataDir: string;
  store: JobStore;
  importer: Pick<Importer, 'idle' | 'markGone' | 'importPaths'>;
  recovery: Pick<LibraryRecovery, 'afterCollection'>;
  log: Logger;
  now: () => number;
  /** Orphan files younger than this survive the collection. */
  orphanGraceMs?: number;
  /** Retention's periodic pass (trash auto-empty, prune). */
  maintain: () => Promise<void>;
  /** Resolves when the engine starts closing: a quit never waits for an import to end. */
  closing: Promise<void>;
  /** Where the count of image files missing from disk goes (the library's status shows it). */
  setMissing: (count: number) => void;
}

/**
 * The start-up pass over the library: orphan collection, missing files, imported originals, retention. It stats every
 * file, so it runs in the background once the window has its first page, and waits for a resumed import to end
 * (it is changing the library).
 */
export async function runHousekeeping(deps: HousekeepingDeps): Promise<void> {
  const { dataDir, store, importer, log } = deps;
  const closed = await Promise.race([importer.idle().then(() => false), deps.closing.then(() => true)]);
  if (closed) return;
  const paths = await collectImagePaths(store);
  const collection = await collectOrphans(dataDir, paths.referenced, deps.now(), deps.orphanGraceMs, undefined, {
    previews: false,
  });
  await deps.recovery.afterCollection(collection);
  const missing = (await findMissingFiles(dataDir, paths.images)).count;
  deps.setMissing(missing);
  if (missing > 0) log.warn('image files missing from disk', { count: missing });
  const originals = await checkOriginals(store.imports, importer);
  if (originals.gone + originals.back > 0) log.info('checked imported originals', { ...originals });
  await deps.maintain();
}
