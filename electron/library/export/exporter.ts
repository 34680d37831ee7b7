/** Exports in this session: start, progress, cancel, and the ZIP stream a download reads. */
import { mkdir, realpath, stat, unlink } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { ExportProgressEvent, ExportSummary, StartExport } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { uuidv7 } from '../../../shared/ids.js';
import type { EventBus } from '../../base/events.js';
import type { Logger } from '../../base/logger.js';
import { exportToFolder, createExclusive } from './folder-writer.js';
import { manifestReader, planExport, type PlanDeps, type PlannedFile } from './plan.js';
import { zipExport, type FileOutcome } from './zip-stream.js';
import { exportFaultMessage } from './export-fault.js';
import type { ExportReader } from './read-original.js';
import { isInside } from '../../base/paths.js';

const MISSING_NAMES_SHOWN = 20;
/** Finished exports kept in the list (each holds its plan: names and paths) before the oldest go. */
const FINISHED_KEPT = 20;
/** Progress events at most this often per export (a 10,000-image export would otherwise send 10,000). */
const PROGRESS_MS = 200;

export interface ExporterDeps extends PlanDeps {
  /** Never written into, whatever link the chosen folder is. */
  dataDir: string;
  reader: ExportReader;
  bus: Pick<EventBus, 'emit'>;
  log: Pick<Logger, 'warn'>;
  now(): number;
}

interface Run {
  summary: ExportSummary;
  /** The folder the person chose (a ZIP's or the files'); undefined for a download. */
  folder: string | undefined;
  plan: PlannedFile[];
  abort: AbortController;
  finished: Promise<void>;
  lastEmit: number;
}

export interface ExportDownload {
  fileName: string;
  stream: Readable;
}

export function createExporter(deps: ExporterDeps) {
  const runs = new Map<string, Run>();
  const fields = manifestReader(deps);

  const progressOf = (s: ExportSummary): ExportProgressEvent => ({
    id: s.id,
    status: s.status,
    total: s.total,
    done: s.done,
    bytes: s.bytes,
    missing: s.missing,
  });
  const emit = (run: Run, force: boolean): void => {
    const now = deps.now();
    if (!force && now - run.lastEmit < PROGRESS_MS) return;
    run.lastEmit = now;
    deps.bus.emit('export.progress', progressOf(run.summary));
  };
  const counted =
    (run: Run) =>
    (file: PlannedFile, outcome: FileOutcome): void => {
      const s = run.summary;
      s.done += 1;
      if (outcome.missing) {
        s.missing += 1;
        if (s.missingNames.length < MISSING_NAMES_SHOWN) s.missingNames.push(file.name);
      } else s.bytes += outcome.bytes;
      emit(run, false);
    };
  const finish = (run: Run, status: ExportSummary['status'], error?: string): void => {
    run.summary.status = status;
    run.summary.finishedAt = deps.now();
    if (error !== undefined) run.summary.error = error;
    emit(run, true);
  };
  const settle = (run: Run, work: Promise<void>): Promise<void> =>
    work.then(
      () => finish(run, run.abort.signal.aborted ? 'cancelled' : 'completed'),
      (error: unknown) => {
        if (run.abort.signal.aborted) return finish(run, 'cancelled');
        deps.log.warn('export failed', { id: run.summary.id, error: String(error) });
        const s = run.summary;
        finish(
          run,
          'failed',
          exportFaultMessage(error, { folder: run.folder, format: s.format, done: s.done - s.missing, total: s.total }),
        );
      },
    );

  async function usableFolder(folder: string): Promise<void> {
    await mkdir(folder, { recursive: true }).catch(() => undefined);
    const info = await stat(folder).catch(() => null);
    if (info === null || !info.isDirectory())
      throw new AppError('invalid_request', `${folder} is not a folder Atelier can write to.`);
    // Followed through any link: an export never writes among the library's own files.
    const [real, data] = await Promise.all([realpath(folder), realpath(deps.dataDir).catch(() => deps.dataDir)]);
    if (isInside(data, real))
      throw new AppError(
        'invalid_request',
        `${folder} is inside Atelier's own data folder: choose a folder outside it.`,
        { details: { field: 'folder' } },
      );
  }

  const refused = (file: PlannedFile, why: string): void =>
    deps.log.warn('an original was left out of an export', { imageId: file.imageId, why });
  const zipName = (at: number): string =>
    `atelier-export-${new Date(at).toISOString().slice(0, 19).replace(/[T:]/g, '-')}.zip`;

  return {
    async start(input: StartExport): Promise<ExportSummary> {
      if (input.folder !== undefined) await usableFolder(input.folder);
      const target = input.target.ids !== undefined ? { ids: input.target.ids } : { query: input.target.query! };
      const plan = planExport(deps, target);
      if (plan.length === 0) throw new AppError('invalid_request', 'Nothing to export: no image matches.');
      const createdAt = deps.now();
      const summary: ExportSummary = {
        id: uuidv7(createdAt),
        status: 'running',
        total: plan.length,
        done: 0,
        bytes: 0,
        missing: 0,
        format: input.format,
        manifest: input.manifest,
        createdAt,
        missingNames: [],
      };
      const run: Run = {
        summary,
        folder: input.folder,
        plan,
        abort: new AbortController(),
        finished: Promise.resolve(),
        lastEmit: 0,
      };
      runs.set(summary.id, run);
      const finished = [...runs.values()].filter((r) => r.summary.finishedAt !== undefined);
      for (const old of finished.slice(0, Math.max(0, finished.length - FINISHED_KEPT))) runs.delete(old.summary.id);
      const options = {
        manifest: input.manifest,
        now: deps.now,
        signal: run.abort.signal,
        onFile: counted(run),
        fields,
        reader: deps.reader,
        onRefused: refused,
      };
      if (input.folder === undefined) summary.status = 'ready';
      else if (input.format === 'folder') {
        summary.path = input.folder;
        run.finished = settle(run, exportToFolder(input.folder, plan, options));
      } else {
        const file = await createExclusive(input.folder, zipName(createdAt));
        summary.path = file.path;
        // A .zip cut short by a cancel or a fault is this export's own half-file: it goes.
        const written = pipeline(zipExport(plan, options), file.handle.createWriteStream()).catch(
          async (error: unknown) => {
            await unlink(file.path).catch(() => undefined);
            throw error;
          },
        );
        run.finished = settle(run, written);
      }
      emit(run, true);
      return { ...summary, missingNames: [...summary.missingNames] };
    },
    list(): ExportSummary[] {
      return [...runs.values()].map((r) => ({ ...r.summary, missingNames: [...r.summary.missingNames] })).reverse();
    },
    async cancel(id: string): Promise<ExportSummary> {
      const run = runs.get(id);
      if (run === undefined) throw new AppError('not_found', 'No such export in this session.');
      if (run.summary.status === 'running' || run.summary.status === 'ready') {
        run.abort.abort();
        if (run.summary.status === 'ready') finish(run, 'cancelled');
        await run.finished;
      }
      return { ...run.summary, missingNames: [...run.summary.missingNames] };
    },
    /**
     * The export as a ZIP streamed straight from the originals. A `ready` export's progress follows its download;
     * any other export (a folder, a .zip being written) is read again from its plan without touching its counters.
     */
    download(id: string): ExportDownload | null {
      const run = runs.get(id);
      if (run === undefined || run.summary.status === 'cancelled') return null;
      const fileName = zipName(run.summary.createdAt);
      if (run.summary.status !== 'ready') {
        const own = new AbortController();
        const stream = zipExport(run.plan, {
          manifest: run.summary.manifest,
          now: deps.now,
          signal: own.signal,
          onFile: () => undefined,
          fields,
          reader: deps.reader,
          onRefused: refused,
        });
        stream.once('close', () => own.abort());
        return { fileName, stream };
      }
      run.summary.status = 'running';
      const stream = zipExport(run.plan, {
        manifest: run.summary.manifest,
        now: deps.now,
        signal: run.abort.signal,
        onFile: counted(run),
        fields,
        reader: deps.reader,
        onRefused: refused,
      });
      let ended = false;
      stream.once('end', () => (ended = true));
      run.finished = new Promise<void>((resolve) => {
        stream.once('close', () => {
          if (run.abort.signal.aborted) finish(run, 'cancelled');
          else if (ended) finish(run, 'completed');
          else {
            // The browser left mid-download: the export can be downloaded again from the start.
            Object.assign(run.summary, { status: 'ready', done: 0, bytes: 0, missing: 0, missingNames: [] });
            emit(run, true);
          }
          resolve();
        });
      });
      return { fileName, stream };
    },
    async close(): Promise<void> {
      for (const run of runs.values()) run.abort.abort();
      await Promise.all([...runs.values()].map((r) => r.finished));
    },
  };
}

export type Exporter = ReturnType<typeof createExporter>;
