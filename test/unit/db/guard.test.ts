/**
 * The store's one write guard (electron/db/guard.ts) with the library folder gone: every read of every sub-store still
 * answers from the open file, every write is refused. The tables are typed by each sub-store's reads and writes, so a
 * function moved from one to the other fails here twice: the table no longer type-checks, and the call is refused
 * (a read) or let through (a write).
 */
import { renameSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import type { CurationReads, CurationWrites } from '../../../electron/db/curation-store.js';
import type { ImportReads, ImportWrites } from '../../../electron/db/import-types.js';
import type { MaskReads, MaskWrites } from '../../../electron/db/masks.js';
import type { PresetReads, PresetWrites } from '../../../electron/db/presets.js';
import type { PromptHistoryReads, PromptHistoryWrites } from '../../../electron/db/prompt-history.js';
import type { SimilarReads, SimilarWrites } from '../../../electron/db/similar.js';
import type { JobReads, JobStore, JobWrites } from '../../../electron/db/types.js';
import type { XmpSidecarReads, XmpSidecarWrites } from '../../../electron/db/xmp-sidecars.js';
import { finished, image, open, req, tempDir } from './helpers.js';

type Calls<T> = { [K in keyof T]-?: (store: JobStore) => unknown };

// Writes are refused before they run, so their arguments are never read.
const unused = undefined as never;

interface Seeded {
  jobId: string;
  imageId: string;
}

function readsOf({ jobId, imageId }: Seeded) {
  const root: Calls<JobReads> = {
    get: (s) => s.get(jobId),
    getSummary: (s) => s.getSummary(jobId),
    list: (s) => s.list({ limit: 10, view: 'active' }),
    queued: (s) => s.queued(10),
    previewPrune: (s) => s.previewPrune({ maxJobs: 0 }),
    trashSummary: (s) => s.trashSummary(),
    stats: (s) => s.stats(),
    image: (s) => s.image(imageId),
    imagePathsPage: (s) => s.imagePathsPage(null, 10),
    getSetting: (s) => s.getSetting('theme'),
  };
  const imports: Calls<ImportReads> = {
    get: (s) => s.imports.get('none'),
    list: (s) => s.imports.list(10),
    running: (s) => s.imports.running(),
    problems: (s) => s.imports.problems('none', 10),
    folder: (s) => s.imports.folder('none'),
    folders: (s) => s.imports.folders(),
    folderList: (s) => s.imports.folderList(),
    pending: (s) => s.imports.pending('none', 0, 10),
    location: (s) => s.imports.location('/nowhere.png'),
    imageBySha: (s) => s.imports.imageBySha('0'.repeat(64)),
    locationsIn: (s) => s.imports.locationsIn('none', '', 10),
    original: (s) => s.imports.original(imageId),
    thumbless: (s) => s.imports.thumbless(10),
    sourceCounts: (s) => s.imports.sourceCounts(['atelier'], 10),
  };
  const curation: Calls<CurationReads> = {
    count: (s) => s.curation.count({ search: 'fox' }),
    countPlan: (s) => s.curation.countPlan({ search: 'fox' }),
    imagesTagged: (s) => s.curation.imagesTagged('sky'),
    tags: (s) => s.curation.tags(),
    boards: (s) => s.curation.boards(),
    suggest: (s) => s.curation.suggest('fo', 2),
    suggestPlan: (s) => s.curation.suggestPlan('fo', 2),
    resolve: (s) => s.curation.resolve({ ids: [imageId] }),
  };
  const xmp: Calls<XmpSidecarReads> = {
    target: (s) => s.xmp.target(imageId),
    written: (s) => s.xmp.written('/nowhere.xmp'),
  };
  const similar: Calls<SimilarReads> = {
    hashPage: (s) => s.similar.hashPage(0, 10),
    maxRowid: (s) => s.similar.maxRowid(),
    hashless: (s) => s.similar.hashless(null, 10),
    image: (s) => s.similar.image(imageId),
    resolve: (s) => s.similar.resolve([1]),
    jobSummaries: (s) => s.similar.jobSummaries([jobId]),
  };
  const masks: Calls<MaskReads> = { get: (s) => s.masks.get('none') };
  const presets: Calls<PresetReads> = { list: (s) => s.presets.list() };
  const prompts: Calls<PromptHistoryReads> = { list: (s) => s.prompts.list(undefined, 10) };
  return { root, imports, curation, xmp, similar, masks, presets, prompts };
}

const writes = {
  root: {
    submit: (s) => s.submit(req('into the void')),
    submitMany: (s) => s.submitMany([req('into the void')]),
    claim: (s) => s.claim(unused),
    requeue: (s) => s.requeue(unused, unused),
    moveQueued: (s) => s.moveQueued(unused, unused, unused),
    setProgress: (s) => s.setProgress(unused, unused),
    succeed: (s) => s.succeed(unused, unused, unused),
    fail: (s) => s.fail(unused, unused),
    markCancelled: (s) => s.markCancelled(unused),
    requestCancel: (s) => s.requestCancel(unused),
    recoverInterrupted: (s) => s.recoverInterrupted(),
    setRemote: (s) => s.setRemote(unused, unused),
    linkRetry: (s) => s.linkRetry(unused, unused),
    appendEvent: (s) => s.appendEvent(unused, unused, unused),
    setFavorite: (s) => s.setFavorite(unused, unused),
    trash: (s) => s.trash(unused),
    restore: (s) => s.restore(unused),
    purge: (s) => s.purge(unused),
    purgeTrashed: (s) => s.purgeTrashed(unused, unused),
    emptyTrash: (s) => s.emptyTrash(),
    prune: (s) => s.prune(unused),
    restoreFromFiles: (s) => s.restoreFromFiles(unused),
    emptyTrashOlderThan: (s) => s.emptyTrashOlderThan(unused),
    setSetting: (s) => s.setSetting('theme', 'dark'),
  } satisfies Calls<JobWrites>,
  imports: {
    create: (s) => s.imports.create(unused),
    setStatus: (s) => s.imports.setStatus(unused, unused),
    ensureFolder: (s) => s.imports.ensureFolder(unused),
    addFiles: (s) => s.imports.addFiles(unused, unused),
    scanDone: (s) => s.imports.scanDone(unused),
    commit: (s) => s.imports.commit(unused, unused),
    markGone: (s) => s.imports.markGone(unused),
    removeFolder: (s) => s.imports.removeFolder(unused),
    setFolderScanned: (s) => s.imports.setFolderScanned(unused),
    setFolderWatch: (s) => s.imports.setFolderWatch(unused, unused),
    setThumb: (s) => s.imports.setThumb(unused, unused),
  } satisfies Calls<ImportWrites>,
  curation: {
    setRating: (s) => s.curation.setRating(unused, unused),
    setFavorite: (s) => s.curation.setFavorite(unused, unused),
    setRejected: (s) => s.curation.setRejected(unused, unused),
    trash: (s) => s.curation.trash(unused),
    restore: (s) => s.curation.restore(unused),
    tag: (s) => s.curation.tag(unused, unused, unused),
    undo: (s) => s.curation.undo(unused),
    renameTag: (s) => s.curation.renameTag(unused, unused),
    createBoard: (s) => s.curation.createBoard(unused),
    renameBoard: (s) => s.curation.renameBoard(unused, unused),
    deleteBoard: (s) => s.curation.deleteBoard(unused),
    boardAdd: (s) => s.curation.boardAdd(unused, unused),
    boardRemove: (s) => s.curation.boardRemove(unused, unused),
  } satisfies Calls<CurationWrites>,
  xmp: { record: (s) => s.xmp.record(unused, unused, unused) } satisfies Calls<XmpSidecarWrites>,
  similar: { setHash: (s) => s.similar.setHash(unused, unused) } satisfies Calls<SimilarWrites>,
  masks: { insert: (s) => s.masks.insert(unused) } satisfies Calls<MaskWrites>,
  presets: {
    save: (s) => s.presets.save(unused),
    delete: (s) => s.presets.delete(unused),
    importStyles: (s) => s.presets.importStyles(unused),
  } satisfies Calls<PresetWrites>,
  prompts: { record: (s) => s.prompts.record(unused) } satisfies Calls<PromptHistoryWrites>,
};

/** The reason a call was refused for the folder being gone, or null when it was not refused for that. */
function refusal(call: () => unknown): string | null {
  try {
    call();
    return null;
  } catch (error) {
    const reason = error instanceof AppError ? (error.details as { reason?: string } | undefined)?.reason : undefined;
    return reason === 'library_gone' ? `${error instanceof Error ? error.message : String(error)}` : null;
  }
}

function seeded(): { store: JobStore; dir: string; seed: Seeded } {
  const dir = tempDir();
  const store = open({ dataDir: dir });
  const img = image(0);
  const jobId = finished(store, 'a red fox under the sky', {}, [img]);
  store.prompts.record(['a red fox under the sky']);
  return { store, dir, seed: { jobId, imageId: img.id } };
}

describe('the library folder gone while the store is open', () => {
  it('every read of every sub-store still answers', () => {
    const { store, dir, seed } = seeded();
    const reads = readsOf(seed);
    renameSync(dir, `${dir}-away`);
    try {
      for (const [part, calls] of Object.entries(reads)) {
        for (const [name, call] of Object.entries(calls as Record<string, (s: JobStore) => unknown>)) {
          expect(
            refusal(() => call(store)),
            `${part}.${name}`,
          ).toBeNull();
        }
      }
      expect(store.get(seed.jobId).prompt).toBe('a red fox under the sky');
      expect(store.list({ limit: 10, view: 'active' }).items.map((j) => j.id)).toEqual([seed.jobId]);
    } finally {
      renameSync(`${dir}-away`, dir);
    }
  });

  it('every write of every sub-store is refused, and nothing changed', () => {
    const { store, dir, seed } = seeded();
    const before = store.stats();
    renameSync(dir, `${dir}-away`);
    try {
      for (const [part, calls] of Object.entries(writes)) {
        for (const [name, call] of Object.entries(calls as Record<string, (s: JobStore) => unknown>)) {
          expect(
            refusal(() => call(store)),
            `${part}.${name}`,
          ).toMatch(/library folder \(.*\) is gone/);
        }
      }
    } finally {
      renameSync(`${dir}-away`, dir);
    }
    // The same folder back: writes carry on by themselves.
    expect(store.stats()).toEqual(before);
    expect(store.setFavorite([seed.jobId], true)).toBe(1);
  });
});
