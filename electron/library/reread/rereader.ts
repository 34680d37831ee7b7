/**
 * Re-reads imported files' settings with this build's readers (readers/reader-version.ts), in the background: after
 * an upgrade every file older readers read, and at once the images a person asks about (marked version 0, read
 * first). One file at a time through the guarded open; it waits while an import reads files. Resumable by design:
 * each job records the version that read it, so a restart picks up the files still to do.
 */
import type { ImageSource, RereadProgress } from '../../../shared/contract.js';
import type { Logger } from '../../base/logger.js';
import type { JobStore } from '../../db/types.js';
import { importedJobFields } from '../import/to-imported.js';
import { sidecarOf } from '../import/probe-file.js';
import { imageSourceOf } from '../originals/image-source.js';
import type { OriginalReader } from '../originals/original-reader.js';
import type { MetadataReader } from '../readers/metadata-pool.js';
import type { RereadOutcome } from '../../db/rereads.js';
import type { ReadImageOptions } from '../readers/read-image.js';

const BATCH = 32;
/** Files read at once: the read pool and the metadata threads overlap one file's disk with another's parsing. */
const IN_FLIGHT = 3;
/** Progress goes out at most this often while files are read (a count over the library each time). */
const PROGRESS_EVERY_MS = 500;
/** Rewritten jobs are announced together at most this often: a window redraws a few times a second, not per file. */
const ANNOUNCE_EVERY_MS = 1_000;

export interface RereaderDeps {
  dataDir: string;
  store: Pick<JobStore, 'rereads' | 'image' | 'imports'>;
  log: Pick<Logger, 'warn' | 'info'>;
  /** The guarded read (hash checked for linked originals). */
  reader: Pick<OriginalReader, 'use'>;
  /** Settings readers on their threads (readers/off-thread.ts). */
  metadata: MetadataReader;
  /** The readers' version this build writes. */
  version: number;
  /** Options for every read: the person's own ComfyUI node rules. */
  readOptions(): ReadImageOptions;
  /** True while an import reads files; `idle` resolves when none does. */
  busy(): boolean;
  idle(): Promise<void>;
  /** Progress, every so often while files are read and on each change of state. */
  onProgress(progress: RereadProgress): void;
  /** Jobs whose settings a re-read rewrote: the hosts show them anew. */
  announce(jobIds: string[]): void;
  now?(): number;
}

export function createRereader(deps: RereaderDeps) {
  const { store, log } = deps;
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  let state: RereadProgress['state'] = 'idle';
  let done = 0;
  let failed = 0;

  const progress = (): RereadProgress => {
    const counts = store.rereads.rereadCounts(deps.version);
    return { state, left: counts.stale, imported: counts.imported, done, failed };
  };
  const now = deps.now ?? Date.now;
  let reportedAt = -Infinity;
  const report = (next: RereadProgress['state']): void => {
    state = next;
    reportedAt = now();
    deps.onProgress(progress());
  };
  const reportSoon = (): void => {
    if (now() - reportedAt >= PROGRESS_EVERY_MS) report(state);
  };

  let rewritten: string[] = [];
  let announcedAt = -Infinity;
  const announce = (force: boolean): void => {
    if (rewritten.length === 0 || (!force && now() - announcedAt < ANNOUNCE_EVERY_MS)) return;
    announcedAt = now();
    const ids = rewritten;
    rewritten = [];
    deps.announce(ids);
  };

  /** One job read again, or marked tried when it could not be; never throws. */
  async function settle(jobId: string, imageId: string): Promise<void> {
    let outcome: RereadOutcome | 'unread' = 'unread';
    try {
      outcome = await rereadOne(jobId, imageId);
    } catch (error) {
      log.warn('could not re-read an imported file', {
        jobId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    if (closed) return;
    if (outcome === 'rewritten') rewritten.push(jobId);
    if (outcome === 'rewritten' || outcome === 'unchanged') done += 1;
    else {
      failed += 1;
      store.rereads.markRereadTried(jobId, deps.version);
    }
  }

  /** One job's file read again; 'unread' when it could not be (the job keeps its read, marked tried). */
  async function rereadOne(jobId: string, imageId: string): Promise<RereadOutcome | 'unread'> {
    const image = store.image(imageId);
    const source = imageSourceOf(deps.dataDir, store, imageId);
    if (image === null || source === null) return 'unread';
    const original = store.imports.original(imageId);
    const path = original?.path ?? source.path;
    const sidecarText = original === null ? undefined : await sidecarOf(original.path, original.root);
    const options = { ...deps.readOptions(), ...(sidecarText === undefined ? {} : { sidecarText }) };
    const { read } = await deps.reader.use(source, (file) => deps.metadata(file.bytes, options));
    const fields = importedJobFields(read, {
      path,
      width: image.width,
      height: image.height,
      mode: source.linked ? 'link' : 'copy',
    });
    return store.rereads.applyReread(jobId, fields, deps.version);
  }

  async function loop(): Promise<void> {
    for (;;) {
      if (closed) return;
      if (deps.busy()) {
        report('paused');
        await deps.idle();
        continue;
      }
      // Every row read (or tried) leaves the stale set, so each batch starts from the top: marked ones come first.
      const rows = store.rereads.staleImported(deps.version, BATCH);
      if (rows.length === 0) {
        if (!again) return;
        again = false;
        continue;
      }
      if (state !== 'running') report('running');
      for (let at = 0; at < rows.length; at += IN_FLIGHT) {
        if (closed || deps.busy()) break;
        await Promise.all(rows.slice(at, at + IN_FLIGHT).map((row) => settle(row.jobId, row.imageId)));
        if (closed) return;
        announce(false);
        reportSoon();
      }
    }
  }

  return {
    /** Starts a pass when files are waiting (on open, after an import, after a person asked). */
    start(): void {
      if (closed) return;
      if (running !== null) {
        again = true;
        return;
      }
      running = loop()
        .catch((error: unknown) => log.warn('the re-read pass stopped', { error: String(error) }))
        .finally(() => {
          running = null;
          if (!closed) announce(true);
          if (!closed) report('idle');
        });
    },
    /** Marks images' files to be read again now, and starts. */
    request(imageIds: readonly string[]): number {
      const marked = store.rereads.markForReread(imageIds);
      this.start();
      return marked;
    },
    /** Marks every imported file from these tools to be read again (the person's node rules changed), and starts. */
    requestSources(sources: readonly ImageSource[]): number {
      let marked = 0;
      for (const source of sources) marked += store.rereads.markSourceForReread(source);
      this.start();
      return marked;
    },
    status: (): RereadProgress => progress(),
    /** Resolves when the current pass has finished (tests). */
    idle: async (): Promise<void> => {
      while (running !== null) await running;
    },
    async close(): Promise<void> {
      closed = true;
      await running;
    },
  };
}

export type Rereader = ReturnType<typeof createRereader>;
