/** The import aggregate's typed interface: import records, their files, folders and file locations. */
import type {
  ImportedMetadata,
  ImportMode,
  ImportProblem,
  ImportStatus,
  ImageSource,
  LibraryFolder,
  SourceCount,
  StoredRequest,
} from '../../shared/contract.js';
import type { NewImage } from './records.js';

export interface ImportRecord {
  id: string;
  status: ImportStatus;
  mode: ImportMode;
  watch: boolean;
  paths: string[];
  scanDone: boolean;
  found: number;
  imported: number;
  duplicates: number;
  skipped: number;
  failed: number;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

export interface PendingFile {
  seq: number;
  path: string;
  folderId: string;
}

export interface KnownLocation {
  imageId: string;
  jobId: string;
  bytes: number;
  mtimeMs: number;
  missing: boolean;
}

/** A new imported image: its job (succeeded, at the file's own time) and its one image. */
export interface ImportedImage {
  jobId: string;
  createdAt: number;
  source: ImageSource;
  request: StoredRequest;
  /** The model the file names, shown on the card whichever provider the request is for. */
  model?: string;
  seed?: string;
  metadata: ImportedMetadata;
  /** Extra folded text to search besides the prompts (model, sampler, LoRAs, raw metadata), already capped. */
  searchExtra: string;
  /** The readers' version that read the file (readers/reader-version.ts). */
  readerVersion: number;
  image: NewImage & { linked: boolean };
}

/** What became of one file: the transaction that records it also records the file's location. */
export type FileOutcome =
  /** path null: no place outside the data dir is known (a library file rebuilt after the database was lost). */
  | {
      kind: 'imported';
      seq: number;
      path: string | null;
      folderId: string | null;
      bytes: number;
      mtimeMs: number;
      image: ImportedImage;
    }
  | {
      kind: 'duplicate';
      seq: number;
      path: string;
      folderId: string | null;
      bytes: number;
      mtimeMs: number;
      imageId: string;
    }
  | { kind: 'unchanged'; seq: number }
  | { kind: 'skipped' | 'failed'; seq: number; path: string; reason: string };

export interface CommitResult {
  /** Jobs created by this batch (announce them). */
  created: string[];
  /** Jobs that gained or regained a location (announce them: their path may have changed). */
  touched: string[];
}

/** What the import store answers from the open file. */
export interface ImportReads {
  get(id: string): ImportRecord | null;
  list(limit: number): ImportRecord[];
  /** Imports that were running when Atelier stopped (resumed on start). */
  running(): ImportRecord[];
  problems(id: string, limit: number): ImportProblem[];
  folder(id: string): (Omit<LibraryFolder, 'watchState' | 'images' | 'missing'> & { isFile: boolean }) | null;
  /** Every folder with its image and missing counts (they read all its locations: for the Settings list). */
  folders(): Array<Omit<LibraryFolder, 'watchState'> & { isFile: boolean }>;
  /** Every folder, without counts: cheap at any library size. */
  folderList(): Array<Omit<LibraryFolder, 'watchState' | 'images' | 'missing'> & { isFile: boolean }>;
  pending(importId: string, afterSeq: number, limit: number): PendingFile[];
  location(path: string): KnownLocation | null;
  imageBySha(sha256: string): { imageId: string; jobId: string } | null;
  /** Paths of known locations below a folder, for the offline comparison and the missing check. */
  locationsIn(
    folderId: string,
    afterPath: string,
    limit: number,
  ): Array<{ path: string; bytes: number; mtimeMs: number; missing: boolean }>;
  /** An image's original on disk, with the allow-listed root it must lie under; null when none is known. */
  original(imageId: string): { path: string; root: string } | null;
  /** Images whose thumbnail is still to be made, newest first (the top of the grid). */
  thumbless(limit: number): Array<{ imageId: string; jobId: string }>;
  /** The tools the library holds images of, each counted up to `cap` (bounded work at any library size). */
  sourceCounts(sources: readonly ImageSource[], cap: number): SourceCount[];
}

/** What the import store records (each guarded as a write). */
export interface ImportWrites {
  create(input: { id: string; paths: string[]; mode: ImportMode; watch: boolean }): ImportRecord;
  setStatus(id: string, status: ImportStatus): ImportRecord;
  /** The folder (or single file) as an allow-listed root; an existing one is reused (watch only ever turns on here). */
  ensureFolder(input: { path: string; isFile: boolean; mode: ImportMode; watch: boolean }): string;
  /** Files found by a scan, in order; a path this import already has is ignored (a resumed scan adds no duplicates). */
  addFiles(importId: string, files: Array<{ path: string; folderId: string }>): number;
  scanDone(importId: string): void;
  /** Every outcome of a batch of files, in one transaction, with the import's counts. */
  commit(importId: string | null, outcomes: FileOutcome[]): CommitResult;
  /** Originals gone from where they were: a location the image also has elsewhere is dropped (moved), else marked missing. */
  markGone(paths: string[]): CommitResult;
  /** Removes the folder from the library: its imported jobs go to the trash; no file is touched. */
  removeFolder(id: string): { trashed: string[] };
  setFolderScanned(id: string): void;
  /** Watch on or off for a folder (not a single file); the folder as it now is. */
  setFolderWatch(id: string, watch: boolean): void;
  setThumb(imageId: string, thumbPath: string): string | null;
}

export type ImportStore = ImportReads & ImportWrites;
