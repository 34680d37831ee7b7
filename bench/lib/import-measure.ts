/**
 * One import of a generated folder through a fresh engine (link mode), timed the way a person sees it: the first
 * job announced, every file committed, thumbnails arriving in the background, and the main loop and memory meanwhile.
 */
import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';
import { createEngine } from '../../electron/engine/create-engine.js';
import type { Engine } from '../../electron/engine/types.js';
import type { ImportProgressEvent, JobSummary } from '../../shared/contract.js';
import { memoryKeyring } from './engine-kit.js';

/** The same method as bench/worker.ts: the histogram counts from the timer's resolution, so that is subtracted. */
export const LOOP_RESOLUTION_MS = 10;

/** `housekeepingDelayMs`: the start-up orphan collection and originals check (the app's default: 3 s after opening). */
export const openEngine = (dataDir: string, housekeepingDelayMs?: number): Promise<Engine> =>
  createEngine(
    {
      dataDir,
      keyring: memoryKeyring(),
    },
    {
      ...(housekeepingDelayMs === undefined ? {} : { housekeepingDelayMs }),
      maintenanceIntervalMs: 0,
    },
  );

export interface Stall {
  p99: number;
  max: number;
}

const stallOf = (h: IntervalHistogram): Stall => ({
  p99: Math.max(0, h.percentile(99) / 1e6 - LOOP_RESOLUTION_MS),
  max: Math.max(0, h.max / 1e6 - LOOP_RESOLUTION_MS),
});

export interface ImportRun {
  final: ImportProgressEvent;
  /** From the library.import call, ms. */
  firstJobMs: number;
  committedMs: number;
  filesPerSecond: number;
  /** The importer's own last reported rate (files/s), for comparison. */
  reportedRate: number | undefined;
  stallImport: Stall;
  stallThumbs: Stall;
  peakRssImportMb: number;
  peakRssMb: number;
  baselineRssMb: number;
  /** Files done (committed) over time, from the progress events: ms from the call, count. */
  timeline: Array<{ ms: number; processed: number }>;
  /** Main-loop stalls over 100 ms during the import: when (s from the call) and how long (ms). */
  longStalls: Array<{ atS: number; ms: number }>;
  thumbs: {
    made: number;
    wanted: number;
    duringImport: number;
    /** Thumbnails per second over the import and after it, and after it alone (nothing else running). */
    overallPerSecond: number;
    afterImportPerSecond: number;
    seconds: number;
    capped: boolean;
  };
}

const done = (status: string): boolean => status !== 'running';

/** Imports `root` into the engine and follows it until the import ends and thumbnails are made (or `thumbCapS` passes). */
export async function measureImport(
  engine: Engine,
  root: string,
  thumbCapS: number,
  onCommitted?: () => void,
): Promise<ImportRun> {
  let firstJobAt = NaN;
  let committedAt = NaN;
  let final: ImportProgressEvent | undefined;
  let reportedRate: number | undefined;
  const pending = new Set<string>();
  const thumbed = new Set<string>();
  const thumbTimes: number[] = [];
  let importId: string | undefined = undefined;
  let started = performance.now();
  let settle!: () => void;
  const finished = new Promise<void>((r) => (settle = r));
  let thumbsAll: () => void = () => undefined;

  const onChanged = ({ job }: { job: JobSummary }): void => {
    if (job.source === 'atelier') return;
    if (Number.isNaN(firstJobAt)) firstJobAt = performance.now();
    if (job.images.some((image) => image.thumbPending === true)) {
      if (!thumbed.has(job.id)) pending.add(job.id);
      return;
    }
    if (thumbed.has(job.id)) return;
    thumbed.add(job.id);
    pending.delete(job.id);
    thumbTimes.push(performance.now());
    if (final !== undefined && thumbed.size >= final.imported) thumbsAll();
  };
  const timeline: ImportRun['timeline'] = [];
  const onProgress = (event: ImportProgressEvent): void => {
    if (importId !== undefined && event.id !== importId) return;
    timeline.push({
      ms: performance.now() - started,
      processed: event.imported + event.duplicates + event.skipped + event.failed,
    });
    if (event.ratePerSecond !== undefined) reportedRate = event.ratePerSecond;
    if (done(event.status) && final === undefined) {
      committedAt = performance.now();
      final = event;
      onCommitted?.();
      settle();
    }
  };
  const offChanged = engine.events.on('jobs.changed', onChanged);
  const offProgress = engine.events.on('library.importProgress', onProgress);

  let peakImport = 0;
  let peak = 0;
  let inImport = true;
  const baselineRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    const rss = process.memoryUsage().rss;
    peak = Math.max(peak, rss);
    if (inImport) peakImport = Math.max(peakImport, rss);
  }, 100);
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loop.enable();

  started = performance.now();
  // A plain timer beside the histogram, to say when the long stalls happened.
  const longStalls: ImportRun['longStalls'] = [];
  let tick = performance.now();
  const lagProbe = setInterval(() => {
    const now = performance.now();
    const late = now - tick - LOOP_RESOLUTION_MS;
    if (late > 100) longStalls.push({ atS: (tick - started) / 1000, ms: late });
    tick = now;
  }, LOOP_RESOLUTION_MS);
  const { import: summary } = await engine.handlers['library.import']({ paths: [root], mode: 'link', watch: false });
  importId = summary.id;
  // An import that ended before its id was known (a tiny folder): its final state is in the list.
  if (final === undefined) {
    const known = (await engine.handlers['library.imports']({})).items.find((i) => i.id === importId);
    if (known !== undefined && done(known.status)) onProgress(known);
  }
  await finished;
  clearInterval(lagProbe);
  loop.disable();
  const stallImport = stallOf(loop);
  inImport = false;
  const thumbsDuringImport = thumbed.size;

  const thumbLoop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  thumbLoop.enable();
  const wanted = final!.imported;
  let capped = false;
  if (thumbed.size < wanted) {
    const cap = Math.max(0, thumbCapS * 1000 - (performance.now() - started));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        capped = true;
        resolve();
      }, cap);
      thumbsAll = () => {
        clearTimeout(timer);
        resolve();
      };
      // The last thumbnail may have come while the import's end was being read.
      if (thumbed.size >= wanted) thumbsAll();
    });
  }
  thumbLoop.disable();
  clearInterval(sampler);
  offChanged();
  offProgress();

  const lastThumb = thumbTimes.length > 0 ? thumbTimes[thumbTimes.length - 1]! : NaN;
  const afterImport = thumbTimes.filter((t) => t > committedAt);
  const mb = (b: number): number => b / 1024 / 1024;
  const processed = final!.imported + final!.duplicates + final!.skipped + final!.failed;
  const result: ImportRun = {
    timeline,
    longStalls,
    final: final!,
    firstJobMs: firstJobAt - started,
    committedMs: committedAt - started,
    filesPerSecond: processed / ((committedAt - started) / 1000),
    reportedRate,
    stallImport,
    stallThumbs: stallOf(thumbLoop),
    peakRssImportMb: mb(peakImport),
    peakRssMb: mb(peak),
    baselineRssMb: mb(baselineRss),
    thumbs: {
      made: thumbed.size,
      wanted,
      duringImport: thumbsDuringImport,
      overallPerSecond: thumbed.size / ((lastThumb - started) / 1000),
      // A handful of thumbnails just after the import end says nothing about the background rate.
      afterImportPerSecond:
        afterImport.length >= 10 && lastThumb - committedAt >= 1000
          ? afterImport.length / ((lastThumb - committedAt) / 1000)
          : NaN,
      seconds: (lastThumb - started) / 1000,
      capped,
    },
  };
  return result;
}

/** Closes the engine and opens the same data dir again: ms until the first history page (60) is answered. */
export async function measureReopen(
  engine: Engine,
  dataDir: string,
): Promise<{ ms: number; items: number; engine: Engine }> {
  await engine.close({ graceMs: 0 });
  const t0 = performance.now();
  const next = await openEngine(dataDir);
  const page = await next.handlers['jobs.list']({ limit: 60, view: 'active' });
  return { ms: performance.now() - t0, items: page.items.length, engine: next };
}

/** Each sample's unique word finds exactly its file: the import read the prompts, not just the pixels. */
export async function checkSearch(
  engine: Engine,
  samples: Array<{ path: string; token: string }>,
): Promise<{ found: number; of: number }> {
  let found = 0;
  for (const sample of samples) {
    const page = await engine.handlers['jobs.list']({ limit: 60, view: 'active', search: sample.token });
    if (page.items.length === 1 && page.items[0]!.prompt.includes(sample.token)) found += 1;
  }
  return { found, of: samples.length };
}
