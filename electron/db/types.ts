/**
 * The job store's typed interface: plain synchronous functions over better-sqlite3.
 * The engine and worker depend on this, never on SQL.
 */
import type { AnnotationStore } from './annotations-store.js';
import type { CurationStore } from './curation-store.js';
import type { PresetStore } from './presets.js';
import type { CostStore } from './costs.js';
import type { SweepStore } from './sweeps.js';
import type { PromptHistoryStore } from './prompt-history.js';
import type { ModelNoteReads, ModelNoteWrites } from './model-notes.js';
import type { ModelUsageReads } from './model-usage.js';
import type { XmpSidecarStore } from './xmp-sidecars.js';
import type { ErrorBody } from '../../shared/errors.js';
import type { Db } from './connection.js';
import type { ImportStore } from './import-types.js';
import type { RecoveredBatch, RecoveredImage } from './recovered.js';
import type { SimilarStore } from './similar.js';
import type { RereadStore } from './rereads.js';
import type { QueueStore } from './queue.js';
import type { GenerateRequest, JobDetail, JobResult, JobSummary, ListPage, ListQuery } from '../../shared/contract.js';
import type { MaskStore } from './masks.js';
import type {
  StoreLimits,
  StoredImage,
  NewImage,
  PruneLimits,
  QueuedJob,
  RemovedFiles,
  RetentionMove,
  StoreStats,
  SubmitOutcome,
  StoredRemote,
  TrashSummary,
} from './records.js';

export type {
  NewImage,
  PruneLimits,
  QueuedJob,
  RemovedFiles,
  RetentionMove,
  StoreLimits,
  StoreStats,
  StoredImage,
  StoredRemote,
  SubmitOutcome,
  TrashSummary,
} from './records.js';

/** What the store answers from the open file (readable while its folder is gone). */
export interface JobReads {
  /** Throws AppError('not_found'). */
  get(id: string): JobDetail;
  getSummary(id: string): JobSummary;
  list(query: ListQuery): ListPage;

  /** Queued jobs, oldest first. */
  queued(limit: number): QueuedJob[];
  /** What `prune` would move now; changes nothing. */
  previewPrune(limits: PruneLimits): RetentionMove;
  trashSummary(): TrashSummary;
  stats(): StoreStats;
  image(id: string): StoredImage | null;
  /** Image rows with their file paths, `limit` at a time in id order after `afterId` (null: from the start). */
  imagePathsPage(
    afterId: string | null,
    limit: number,
  ): Array<{ id: string; path: string; thumbPath: string | null; linked: boolean }>;

  getSetting<T>(key: string): T | null;
}

/** What the store changes: store.ts wraps each in the write guard (electron/db/guard.ts). */
export interface JobWrites {
  submit(request: GenerateRequest): { job: JobDetail; created: boolean };
  /**
   * Many submits in one transaction (one commit for a burst); each is answered on its own, exactly as submit()
   * would: a refused one (invalid, conflict, overloaded) leaves the others stored.
   */
  submitMany(requests: GenerateRequest[]): SubmitOutcome[];
  /** Compare-and-set queued -> running, recording the instance that runs it; false when already claimed, not queued or cancel requested. */
  claim(id: string, instance?: string): boolean;
  /** Running -> queued again (its server went away mid-run), with a trace line; false when not running or cancelled. */
  requeue(id: string, message: string, data?: Record<string, unknown>): boolean;
  /** Queued jobs asking for `from` now ask for `to` (a removed instance's work), each with a trace line; their ids. */
  moveQueued(from: string, to: string, message: string): string[];
  /** Writes only when the stage or partial count changed; returns whether it wrote. */
  setProgress(id: string, progress: { stage: string; fraction?: number; partialImages: number }): boolean;
  /** Images + succeeded + result in one transaction. */
  succeed(id: string, images: NewImage[], result: JobResult): JobSummary;
  fail(id: string, error: ErrorBody, result?: Partial<JobResult>): JobSummary;
  markCancelled(id: string, reason?: string): JobSummary;
  /** Queued: cancelled at once. Running: flagged for the worker. Terminal: unchanged. */
  requestCancel(id: string): JobDetail;
  /**
   * On open: running -> interrupted, except work a provider accepted with a handle (setRemote), which goes back to
   * the queue's head to be collected; returns how many of each.
   */
  recoverInterrupted(): { interrupted: number; resumed: number };
  /** Stores a running job's remote handle (before its result is awaited); false when it is no longer running. */
  setRemote(id: string, remote: StoredRemote): boolean;
  /** Links a retry and the job it retried (both rows, one transaction) and records it in both traces. */
  linkRetry(originalId: string, retryId: string): void;
  appendEvent(jobId: string, kind: string, message: string, data?: Record<string, unknown>): void;

  setFavorite(ids: string[], favorite: boolean): number;
  /** Terminal jobs only. */
  trash(ids: string[]): number;
  restore(ids: string[]): number;
  /** Deletes rows; favorites are never purged unless listed explicitly by id. */
  purge(ids: string[]): RemovedFiles;
  /** Only what is in the trash: jobs trashed whole and trashed images (`changed` names their jobs that stay). */
  purgeTrashed(ids: string[], imageIds: string[]): RemovedFiles;
  emptyTrash(): RemovedFiles;
  /** Moves terminal, non-favorite jobs outside the trash into it, oldest first, until within the limits. */
  prune(limits: PruneLimits): RetentionMove;
  /** Recreates succeeded jobs from their files' embedded settings; files already known are skipped. */
  restoreFromFiles(batch: RecoveredImage[]): RecoveredBatch;
  /** Trashed longer than `olderThanMs`; favorites stay (only Empty trash, confirmed, removes them). */
  emptyTrashOlderThan(olderThanMs: number): RemovedFiles;

  setSetting(key: string, value: unknown): void;
}

export interface JobStore extends JobReads, JobWrites {
  /**
   * On a clean quit: a copy in backups/ when anything changed since open (the newest few are kept); resolves to its
   * path relative to the data dir, or null when nothing changed. Bounded in time; call before close().
   */
  backupIfChanged(): Promise<string | null>;
  /** PRAGMA optimize, close, release the library lock. */
  close(): void;

  /** What happened on open: schema migration, backup taken, jobs recovered as interrupted. */
  readonly info: StoreOpenInfo;
  /** Imports, their files, the library's folders and where imported files are. */
  readonly imports: ImportStore;
  /** Per-image curation, tags, boards, counts and suggestions (curation-store.ts). */
  readonly curation: CurationStore;
  /** Corrections of an imported image's settings (beside what its file says) and a note per image. */
  readonly annotations: AnnotationStore;
  /** Linked images' curation for their XMP sidecars, and the sidecars Atelier wrote. */
  readonly xmp: XmpSidecarStore;
  /** Perceptual hashes: find similar and duplicates (the index itself lives in memory, in library/similar). */
  readonly similar: SimilarStore;
  /** Imported files read by older readers, and their new reads (rereads.ts). */
  readonly rereads: RereadStore;
  /** The queue's order (moves) and cancelling all of it, counted (queue.ts). */
  readonly queue: QueueStore;
  /** Masks painted in the viewer for a masked edit. */
  readonly masks: MaskStore;
  /** Saved composer settings and imported A1111 styles (presets.ts). */
  readonly presets: PresetStore;
  /** Prompts submitted, newest first, bounded. */
  readonly prompts: PromptHistoryStore;
  /** What paid jobs cost, per provider per day (costs.ts; electron/spend/ reads and writes it). */
  readonly costs: CostStore;
  /** A note per model library entry (model-notes.ts). */
  readonly modelNotes: ModelNoteReads & ModelNoteWrites;
  /** The images made with each model and LoRA, counted and ranked (model-usage.ts). */
  readonly modelUsage: ModelUsageReads;
  /** Sweeps and the jobs of each cell (sweeps.ts). */
  readonly sweeps: SweepStore;
}

export interface StoreOpenInfo {
  /** Absolute path of atelier.db. */
  databasePath: string;
  /** Schema version found on disk (0 for a new library) and the version now. */
  migratedFrom: number;
  schemaVersion: number;
  /** Copy taken before migrating, relative to the data dir; null when nothing was migrated. */
  backupPath: string | null;
  /** Jobs that were running when Atelier last stopped, now `interrupted`. */
  recoveredInterrupted: number;
  /** Jobs a provider had accepted when Atelier last stopped, back in the queue to be collected. */
  recoveredResumed: number;
  /** PRAGMA quick_check ran on open: skipped only after a clean close left the file untouched. */
  integrityChecked: boolean;
}

export interface StoreOptions {
  dataDir: string;
  now?: () => number;
  limits?: Partial<StoreLimits>;
  /** Called for each statement slower than the threshold (default 40 ms). */
  onSlowQuery?: (name: string, ms: number) => void;
  /** Threshold for onSlowQuery in ms (default 40). */
  slowQueryMs?: number;
  /** Monotonic timer used to time statements (default performance.now); injectable for tests. */
  timer?: () => number;
  /** Search index matches above which a search walks the history index instead (default 2,000). */
  denseSearchThreshold?: number;
  /** History rows a search walks newest-first before it sorts the search index's matches (default 2,000; 0: at once). */
  searchWalkBudget?: number;
  /** A typed query's smallest clause is read through its own index and sorted up to this many rows (default: by history size, at most 4,000). */
  browseSortMax?: number;
  /** jobs.count's figures stop at this many (default 25,000), so a broad query never holds the engine for seconds. */
  countCap?: number;
  nativeBinding?: string;
  /** Tests only: wraps the connection the store uses (fault injection beneath the store's own error handling). */
  wrapDatabase?: (db: Db) => Db;
}
