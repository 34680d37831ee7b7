import { realpath, stat } from 'node:fs/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { z } from 'zod';
import { ImportRequest, type ImportProgressEvent, type ImportSummary } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { uuidv7 } from '../../../shared/ids.js';
import type { FileOutcome, ImportRecord } from '../../db/import-types.js';
import type { JobStore } from '../../db/types.js';
import type { EventBus } from '../../base/events.js';
import type { Logger } from '../../base/logger.js';
import { importOneFile, type FileToImport } from './file-importer.js';
import type { ReadImageOptions } from '../readers/read-image.js';
import { MAX_IMPORT_BYTES } from './probe-file.js';
import { createRate } from './import-rate.js';
import type { ReadResult } from '../originals/read-pool.js';
import type { OriginalReader } from '../originals/original-reader.js';
import { isInside } from '../../base/paths.js';
import { scanFolder, whyUnreadable } from './scan-folder.js';

export interface ImporterDeps {
  dataDir: string;
  store: JobStore;
  bus: EventBus;
  log: Logger;
  now: () => number;
  /** Options for every file's read: the person's own ComfyUI node rules. */
  readOptions?: () => ReadImageOptions;
  /** New or changed jobs, to announce as `jobs.changed`. */
  announce(ids: string[]): void;
  /** A folder imported with watch on: watched from the start of its import, so nothing written meanwhile is missed. */
  onWatchedFolder?(folderId: string): void;
  /** That folder's import finished: the state the next start compares with. */
  onWatchedFolderImported?(folderId: string): void;
  /** Files read at once (I/O overlaps; the readers' CPU share stays small). */
  concurrency?: number;
  /** Files committed per transaction at most, and the longest a finished file waits for its commit. */
  batchSize?: number;
  batchMs?: number;
  /** The guarded read: each file's bytes are read on worker threads, inside its imported root, within the budget. */
  reader: Pick<OriginalReader, 'scope'>;
  /** Test seam: wraps each file's read (an e2e test holds an import mid-way with it). */
  wrapRead?: (path: string, read: (path: string) => Promise<ReadResult>) => Promise<ReadResult>;
}

const PROGRESS_EVERY_MS = 250;
const PROBLEMS_SHOWN = 50;

interface Run {
  id: string;
  stop: 'pause' | 'cancel' | 'quit' | null;
  scanning: boolean;
  done: Promise<void>;
}

/**
 * Imports files and folders, durably: the import and every file found are rows before a file is read, each
 * file's outcome is committed with its counts, so a killed import resumes with the files still pending — no
 * file is read twice once committed, none is lost, and the same content is one image however often it is found.
 */
export function createImporter(deps: ImporterDeps) {
  const { store, log } = deps;
  const imports = store.imports;
  const concurrency = Math.max(1, deps.concurrency ?? 6);
  const batchSize = Math.max(1, deps.batchSize ?? 16);
  const batchMs = Math.max(1, deps.batchMs ?? 100);
  const runs = new Map<string, Run>();
  // Each file's root, by folder id: a file is read only if it really lies inside the folder it was found in.
  const roots = new Map<string, string>();
  const rootOf = (file: FileToImport): string => {
    if (file.folderId === null) return file.path;
    if (!roots.has(file.folderId)) for (const f of imports.folderList()) roots.set(f.id, f.path);
    return roots.get(file.folderId) ?? file.path;
  };
  const rates = new Map<string, ReturnType<typeof createRate>>();

  const progressOf = (record: ImportRecord, scanning: boolean): ImportProgressEvent => {
    const done = record.imported + record.duplicates + record.skipped + record.failed;
    const event: ImportProgressEvent = {
      id: record.id,
      status: record.status,
      scanning,
      found: record.found,
      imported: record.imported,
      duplicates: record.duplicates,
      skipped: record.skipped,
      failed: record.failed,
    };
    const rate = record.status === 'running' ? rates.get(record.id)?.perSecond() : undefined;
    if (rate !== undefined) {
      event.ratePerSecond = Math.round(rate * 10) / 10;
      if (!scanning && rate > 0) event.etaMs = Math.round(((record.found - done) / rate) * 1000);
    }
    return event;
  };

  const summaryOf = (record: ImportRecord): ImportSummary => {
    const summary: ImportSummary = {
      ...progressOf(record, runs.get(record.id)?.scanning ?? (!record.scanDone && record.status === 'running')),
      paths: record.paths,
      mode: record.mode,
      watch: record.watch,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      problems: imports.problems(record.id, PROBLEMS_SHOWN),
    };
    if (record.finishedAt !== null) summary.finishedAt = record.finishedAt;
    return summary;
  };

  const emitProgress = (id: string): void => {
    const record = imports.get(id);
    if (record !== null) deps.bus.emit('library.importProgress', progressOf(record, runs.get(id)?.scanning ?? false));
  };

  /** Resolves each path the person gave to a real, existing folder or file outside the data dir. */
  async function resolveRoots(paths: string[]): Promise<Array<{ path: string; isFile: boolean }>> {
    const dataDir = await realpath(deps.dataDir).catch(() => deps.dataDir);
    const roots: Array<{ path: string; isFile: boolean }> = [];
    for (const given of paths) {
      let real: string;
      try {
        real = await realpath(given);
      } catch {
        throw new AppError('invalid_request', `There is no folder or file at ${given}.`, { details: { path: given } });
      }
      if (isInside(dataDir, real)) {
        throw new AppError(
          'invalid_request',
          "That is inside Atelier's own data folder: its images are already in the library.",
          { details: { path: given } },
        );
      }
      const info = await stat(real);
      if (!info.isDirectory() && !info.isFile())
        throw new AppError('invalid_request', `${given} is neither a folder nor a file.`, { details: { path: given } });
      if (!roots.some((r) => r.path === real)) roots.push({ path: real, isFile: info.isFile() });
    }
    return roots;
  }

  async function scan(run: Run, record: ImportRecord, wake: () => void): Promise<void> {
    const realData = await realpath(deps.dataDir).catch(() => deps.dataDir);
    for (const folder of imports.folderList().filter((f) => record.paths.includes(f.path))) {
      if (folder.isFile) {
        imports.addFiles(record.id, [{ path: folder.path, folderId: folder.id }]);
        wake();
        continue;
      }
      // Folders that cannot be listed join the import as entries of their own: each fails with its reason in the report.
      let unreadable: string[] = [];
      const add = (files: string[]): void => {
        const all = [...files, ...unreadable];
        unreadable = [];
        for (let i = 0; i < all.length; i += 500) {
          imports.addFiles(
            record.id,
            all.slice(i, i + 500).map((path) => ({ path, folderId: folder.id })),
          );
        }
      };
      for await (const files of scanFolder(folder.path, [realData], (dir) => unreadable.push(dir))) {
        if (run.stop !== null) return;
        add(files);
        wake();
        await yieldToLoop();
      }
      add([]);
      wake();
      imports.setFolderScanned(folder.id);
    }
    if (run.stop === null) imports.scanDone(record.id);
  }

  async function process(run: Run, record: ImportRecord): Promise<void> {
    let more: () => void = () => {};
    let scanFinished = record.scanDone;
    const wake = () => more();
    const scanning = scanFinished
      ? Promise.resolve()
      : scan(run, record, wake).finally(() => {
          scanFinished = true;
          run.scanning = false;
          wake();
        });
    run.scanning = !scanFinished;
    const rate = createRate(deps.now);
    rates.set(run.id, rate);
    let lastSeq = 0;
    let lastProgress = 0;
    let pendingCommit: FileOutcome[] = [];
    let lastCommit = deps.now();
    // A slow read (a network drive, a held file) must not hold back the files already read, nor their counts.
    let commitTimer: NodeJS.Timeout | undefined;
    let progressTimer: NodeJS.Timeout | undefined;
    // A commit the timer ran that failed (a storage fault): the next worker step throws it, as its own commit would.
    let timerFault: unknown;
    const commitLater = (): void => {
      try {
        commit();
      } catch (error) {
        timerFault = error;
      }
    };
    const commit = (): void => {
      clearTimeout(commitTimer);
      commitTimer = undefined;
      if (pendingCommit.length === 0) return;
      const batch = pendingCommit;
      pendingCommit = [];
      lastCommit = deps.now();
      const result = imports.commit(run.id, batch);
      const current = imports.get(run.id);
      if (current !== null) rate.mark(current.imported + current.duplicates + current.skipped + current.failed);
      deps.announce([...result.created, ...result.touched]);
      if (deps.now() - lastProgress >= PROGRESS_EVERY_MS) {
        lastProgress = deps.now();
        emitProgress(run.id);
      } else {
        progressTimer ??= setTimeout(() => {
          progressTimer = undefined;
          lastProgress = deps.now();
          try {
            emitProgress(run.id);
          } catch (error) {
            log.warn('could not report import progress', { error: String(error) });
          }
        }, PROGRESS_EVERY_MS).unref();
      }
    };
    try {
      for (;;) {
        if (run.stop !== null) break;
        const files = imports.pending(run.id, lastSeq, batchSize);
        if (files.length === 0) {
          // Done only when no file of this import is left pending, whatever the cursor passed.
          if (scanFinished && (lastSeq === 0 || imports.pending(run.id, 0, 1).length === 0)) break;
          if (scanFinished) {
            lastSeq = 0;
            continue;
          }
          await new Promise<void>((resolve) => {
            more = resolve;
            setTimeout(resolve, 200).unref();
          });
          continue;
        }
        lastSeq = files[files.length - 1]!.seq;
        let next = 0;
        const worker = async (): Promise<void> => {
          while (next < files.length && run.stop === null) {
            const file = files[next++]!;
            // Awaited first: `pendingCommit.push(await …)` would push into the batch another worker has since committed.
            const outcome = await importFileSafely(
              { seq: file.seq, path: file.path, folderId: file.folderId },
              record.mode,
            );
            if (timerFault !== undefined) throw timerFault;
            pendingCommit.push(outcome);
            if (pendingCommit.length >= batchSize || deps.now() - lastCommit >= batchMs) commit();
            else commitTimer ??= setTimeout(commitLater, batchMs).unref();
          }
        };
        await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
        commit();
      }
      await scanning;
    } finally {
      commit();
      clearTimeout(progressTimer);
    }
  }

  async function importFileSafely(file: FileToImport, mode: ImportRecord['mode']): Promise<FileOutcome> {
    // Files are read and hashed on worker threads, their bytes counted against the memory budget until stored.
    const scope = deps.reader.scope();
    const root = rootOf(file);
    const guarded = (path: string) => scope.read({ path, root, maxBytes: MAX_IMPORT_BYTES });
    const reader = deps.wrapRead === undefined ? guarded : (path: string) => deps.wrapRead!(path, guarded);
    try {
      const outcome = await importOneFile(
        deps.dataDir,
        imports,
        { ...file, root },
        mode,
        reader,
        deps.readOptions?.() ?? {},
      );
      if (outcome.kind !== 'failed') return outcome;
      // "Gone" or "not a regular file" would hide the cause: a name that is not UTF-8, a folder that cannot be listed.
      const why = await whyUnreadable(file.path);
      return why === null ? outcome : { ...outcome, reason: why };
    } catch (error) {
      // A storage fault while copying (disk full, data dir gone) stops the import; it resumes when asked.
      if (error instanceof AppError && error.code === 'storage') throw error;
      return {
        kind: 'failed',
        seq: file.seq,
        path: file.path,
        reason: `The file could not be imported: ${error instanceof Error ? error.message : String(error)}`,
      };
    } finally {
      scope.release();
    }
  }

  function start(id: string): Run {
    const existing = runs.get(id);
    if (existing !== undefined) return existing;
    const run: Run = { id, stop: null, scanning: false, done: Promise.resolve() };
    runs.set(id, run);
    run.done = (async () => {
      try {
        const record = imports.get(id);
        if (record === null) return;
        await process(run, record);
        if (run.stop === 'cancel') imports.setStatus(id, 'cancelled');
        else if (run.stop === 'pause') imports.setStatus(id, 'paused');
        else if (run.stop === 'quit') return;
        else {
          imports.setStatus(id, 'completed');
          if (record.watch)
            for (const f of imports.folderList())
              if (record.paths.includes(f.path) && !f.isFile) deps.onWatchedFolderImported?.(f.id);
        }
      } catch (error) {
        log.error('an import stopped', { id, error: error instanceof Error ? error.message : String(error) });
        try {
          imports.setStatus(id, 'paused');
        } catch {
          // The database itself is what failed: the import stays 'running' and resumes on the next start.
        }
      } finally {
        runs.delete(id);
        rates.delete(id);
        emitProgress(id);
      }
    })();
    return run;
  }

  return {
    async import(asked: z.input<typeof ImportRequest>): Promise<ImportSummary> {
      // The hosts validate; parsed again here so a caller inside the process gets the same defaults.
      const request = ImportRequest.parse(asked);
      const roots = await resolveRoots(request.paths);
      const id = uuidv7(deps.now());
      const record = imports.create({ id, paths: roots.map((r) => r.path), mode: request.mode, watch: request.watch });
      for (const root of roots) {
        const folderId = imports.ensureFolder({
          path: root.path,
          isFile: root.isFile,
          mode: request.mode,
          watch: request.watch && !root.isFile,
        });
        if (request.watch && !root.isFile) deps.onWatchedFolder?.(folderId);
      }
      log.info('import started', { id, paths: roots.length, mode: request.mode, watch: request.watch });
      start(id);
      return summaryOf(record);
    },
    list: (): ImportSummary[] => imports.list(50).map(summaryOf),
    /** An import is reading files now. */
    busy: (): boolean => runs.size > 0,
    /** Resolves once no import is reading files (runs that start meanwhile are waited for too). */
    async idle(): Promise<void> {
      while (runs.size > 0) await Promise.all([...runs.values()].map((run) => run.done));
    },
    get(id: string): ImportSummary {
      const record = imports.get(id);
      if (record === null) throw new AppError('not_found', `There is no import ${id}.`, { details: { id } });
      return summaryOf(record);
    },
    async stop(id: string, how: 'pause' | 'cancel'): Promise<ImportSummary> {
      const record = imports.get(id);
      if (record === null) throw new AppError('not_found', `There is no import ${id}.`, { details: { id } });
      const run = runs.get(id);
      if (run !== undefined) {
        run.stop = how;
        await run.done;
      } else if (record.status === 'paused' || record.status === 'running') {
        imports.setStatus(id, how === 'cancel' ? 'cancelled' : 'paused');
        emitProgress(id);
      } else if (record.status !== (how === 'cancel' ? 'cancelled' : 'paused')) {
        throw new AppError('conflict', `This import is already ${record.status}.`, {
          details: { id, status: record.status },
        });
      }
      return summaryOf(imports.get(id)!);
    },
    resume(id: string): ImportSummary {
      const record = imports.get(id);
      if (record === null) throw new AppError('not_found', `There is no import ${id}.`, { details: { id } });
      if (record.status !== 'paused' && record.status !== 'running') {
        throw new AppError('conflict', `This import is ${record.status}: start a new one to import again.`, {
          details: { id, status: record.status },
        });
      }
      if (record.status === 'paused') imports.setStatus(id, 'running');
      start(id);
      return summaryOf(imports.get(id)!);
    },
    /** On start: imports that were running when Atelier stopped go on where they were. */
    resumeInterrupted(): number {
      const running = imports.running();
      for (const record of running) start(record.id);
      if (running.length > 0) log.info('resuming imports', { count: running.length });
      return running.length;
    },
    /** Files a watcher saw appear or change, outside any import record. */
    async importPaths(folderId: string, paths: string[]): Promise<void> {
      const folder = imports.folder(folderId);
      if (folder === null) return;
      const outcomes: FileOutcome[] = [];
      for (const path of paths) outcomes.push(await importFileSafely({ seq: 0, path, folderId }, folder.mode));
      // No import record to hold a watched file's problem: the log says which file and why.
      for (const o of outcomes)
        if (o.kind === 'failed') log.warn('a watched file could not be imported', { path: o.path, reason: o.reason });
      const result = imports.commit(null, outcomes);
      deps.announce([...result.created, ...result.touched]);
    },
    /** Files a watcher saw go: marked missing, or dropped where the same image is known elsewhere (moved). */
    markGone(paths: string[]): void {
      deps.announce(imports.markGone(paths).touched);
    },
    /** Stops every run (on quit): each stays 'running' in the database and resumes on the next start. */
    async close(): Promise<void> {
      const all = [...runs.values()];
      for (const run of all) run.stop = 'quit';
      await Promise.allSettled(all.map((r) => r.done));
    },
  };
}

export type Importer = ReturnType<typeof createImporter>;
