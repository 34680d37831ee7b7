import { sep } from 'node:path';
import type { ImageSource, ImportProblem, ImportStatus, LibraryFolder, SourceCount } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { uuidv7 } from '../../shared/ids.js';
import type { StoreContext } from './context.js';
import type { Events } from './events.js';
import { createImportedJobs } from './imported-jobs.js';
import type {
  CommitResult,
  FileOutcome,
  ImportRecord,
  ImportReads,
  ImportWrites,
  KnownLocation,
  PendingFile,
} from './import-types.js';
import type { Images } from './images.js';
import type { Access } from './guard.js';

interface ImportRow {
  id: string;
  status: string;
  mode: string;
  watch: number;
  paths_json: string;
  scan_done: number;
  found: number;
  imported: number;
  duplicates: number;
  skipped: number;
  failed: number;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

interface FolderRow {
  id: string;
  path: string;
  is_file: number;
  mode: string;
  watch: number;
  created_at: number;
}

function toRecord(row: ImportRow): ImportRecord {
  return {
    id: row.id,
    status: row.status as ImportStatus,
    mode: row.mode as ImportRecord['mode'],
    watch: row.watch === 1,
    paths: JSON.parse(row.paths_json) as string[],
    scanDone: row.scan_done === 1,
    found: row.found,
    imported: row.imported,
    duplicates: row.duplicates,
    skipped: row.skipped,
    failed: row.failed,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}

function toFolder(row: FolderRow) {
  return {
    id: row.id,
    path: row.path,
    isFile: row.is_file === 1,
    mode: row.mode as LibraryFolder['mode'],
    watch: row.watch === 1,
    createdAt: row.created_at,
  };
}

const AFTER_SEP = String.fromCharCode(sep.charCodeAt(0) + 1);

const FINISHED: readonly ImportStatus[] = ['completed', 'cancelled', 'failed'];

export function createImports(ctx: StoreContext, images: Images, events: Events): Access<ImportReads, ImportWrites> {
  const { sql } = ctx;
  const jobs = createImportedJobs(ctx, images, events);
  const insertImport = sql.prepare(
    'imports.insert',
    `INSERT INTO imports (id, status, mode, watch, paths_json, created_at, updated_at) VALUES (?, 'running', ?, ?, ?, ?, ?)`,
  );
  const byId = sql.prepare<ImportRow>('imports.get', 'SELECT * FROM imports WHERE id = ?');
  const newest = sql.prepare<ImportRow>(
    'imports.list',
    'SELECT * FROM imports ORDER BY created_at DESC, id DESC LIMIT ?',
  );
  const runningRows = sql.prepare<ImportRow>(
    'imports.running',
    "SELECT * FROM imports WHERE status = 'running' ORDER BY created_at",
  );
  const setStatusStmt = sql.prepare(
    'imports.setStatus',
    `UPDATE imports SET status = @status, updated_at = @now,
       finished_at = CASE WHEN @finished = 1 THEN @now ELSE NULL END WHERE id = @id`,
  );
  const problemsStmt = sql.prepare<ImportProblem>(
    'imports.problems',
    `SELECT path, reason, status FROM import_files WHERE import_id = ? AND status IN ('skipped', 'failed') ORDER BY seq DESC LIMIT ?`,
  );
  const folderByPath = sql.prepare<FolderRow>('folders.byPath', 'SELECT * FROM import_folders WHERE path = ?');
  const folderById = sql.prepare<FolderRow>('folders.get', 'SELECT * FROM import_folders WHERE id = ?');
  const insertFolder = sql.prepare(
    'folders.insert',
    'INSERT INTO import_folders (id, path, is_file, mode, watch, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const watchFolder = sql.prepare('folders.watch', 'UPDATE import_folders SET watch = 1 WHERE id = ?');
  const setWatchStmt = sql.prepare('folders.setWatch', 'UPDATE import_folders SET watch = ? WHERE id = ?');
  // Down jobs_source_created, at most `cap` jobs per source: a count that never reads the whole library.
  const sourceCount = sql.prepare<{ n: number }>(
    'jobs.sourceCount',
    `SELECT COUNT(*) AS n FROM (SELECT 1 FROM jobs AS j JOIN images AS i ON i.job_id = j.id WHERE j.source = ? LIMIT ?)`,
  );
  const folderRows = sql.prepare<FolderRow & { images: number; missing: number }>(
    'folders.list',
    `SELECT f.*, (SELECT COUNT(DISTINCT l.image_id) FROM image_locations AS l JOIN images AS i ON i.id = l.image_id
         JOIN jobs AS j ON j.id = i.job_id WHERE l.folder_id = f.id AND j.trashed_at IS NULL) AS images,
       (SELECT COUNT(*) FROM image_locations AS l WHERE l.folder_id = f.id AND l.missing_at IS NOT NULL) AS missing
     FROM import_folders AS f ORDER BY f.created_at, f.id`,
  );
  const folderPlain = sql.prepare<FolderRow>('folders.plain', 'SELECT * FROM import_folders ORDER BY created_at, id');
  const scanned = sql.prepare('folders.scanned', 'UPDATE import_folders SET last_scan_at = ? WHERE id = ?');
  const maxSeq = sql.prepare<{ seq: number | null }>(
    'importFiles.maxSeq',
    'SELECT MAX(seq) AS seq FROM import_files WHERE import_id = ?',
  );
  const insertFile = sql.prepare(
    'importFiles.insert',
    'INSERT INTO import_files (import_id, seq, path, folder_id) VALUES (?, ?, ?, ?) ON CONFLICT (import_id, path) DO NOTHING',
  );
  const addFound = sql.prepare('imports.addFound', 'UPDATE imports SET found = found + ?, updated_at = ? WHERE id = ?');
  const scanDoneStmt = sql.prepare('imports.scanDone', 'UPDATE imports SET scan_done = 1, updated_at = ? WHERE id = ?');
  const pendingStmt = sql.prepare<{ seq: number; path: string; folderId: string }>(
    'importFiles.pending',
    `SELECT seq, path, folder_id AS folderId FROM import_files
     WHERE import_id = ? AND status = 'pending' AND seq > ? ORDER BY seq LIMIT ?`,
  );
  const markFile = sql.prepare(
    'importFiles.mark',
    "UPDATE import_files SET status = @status, reason = @reason WHERE import_id = @importId AND seq = @seq AND status = 'pending'",
  );
  const bump = sql.prepare(
    'imports.bump',
    `UPDATE imports SET imported = imported + @imported, duplicates = duplicates + @duplicates, skipped = skipped + @skipped,
       failed = failed + @failed, updated_at = @now WHERE id = @id`,
  );
  const locationStmt = sql.prepare<{
    image_id: string;
    job_id: string;
    bytes: number;
    mtime_ms: number;
    missing_at: number | null;
  }>(
    'locations.get',
    `SELECT l.image_id, i.job_id, l.bytes, l.mtime_ms, l.missing_at FROM image_locations AS l
     JOIN images AS i ON i.id = l.image_id WHERE l.path = ?`,
  );
  const bySha = sql.prepare<{ id: string; job_id: string }>(
    'images.bySha',
    'SELECT id, job_id FROM images WHERE sha256 = ? LIMIT 1',
  );
  const upsertLocation = sql.prepare(
    'locations.upsert',
    `INSERT INTO image_locations (path, image_id, folder_id, bytes, mtime_ms, seen_at) VALUES (@path, @imageId, @folderId, @bytes, @mtime, @now)
     ON CONFLICT (path) DO UPDATE SET image_id = excluded.image_id, folder_id = COALESCE(excluded.folder_id, folder_id),
       bytes = excluded.bytes, mtime_ms = excluded.mtime_ms, seen_at = excluded.seen_at, missing_at = NULL`,
  );
  // The same content found at a new path while its old place is gone: the file was moved, so the old place goes.
  const dropMissingOf = sql.prepare(
    'locations.dropMissingOf',
    'DELETE FROM image_locations WHERE image_id = ? AND missing_at IS NOT NULL AND path <> ?',
  );
  const jobOfImage = sql.prepare<{ job_id: string }>('images.jobOf', 'SELECT job_id FROM images WHERE id = ?');
  const goneLocation = sql.prepare<{ image_id: string; others: number; missing_at: number | null }>(
    'locations.gone',
    `SELECT l.image_id, l.missing_at, (SELECT COUNT(*) FROM image_locations AS o
       WHERE o.image_id = l.image_id AND o.path <> l.path AND o.missing_at IS NULL) AS others
     FROM image_locations AS l WHERE l.path = ?`,
  );
  // The character after the separator bounds the range: it holds exactly the paths that start with `<folder><sep>`.
  const below = sql.prepare<{ path: string }>(
    'locations.below',
    'SELECT path FROM image_locations WHERE path >= ? AND path < ?',
  );
  const deleteLocation = sql.prepare('locations.delete', 'DELETE FROM image_locations WHERE path = ?');
  const markMissing = sql.prepare(
    'locations.markMissing',
    'UPDATE image_locations SET missing_at = ? WHERE path = ? AND missing_at IS NULL',
  );
  const touchJob = sql.prepare('jobs.touch', 'UPDATE jobs SET updated_at = MAX(updated_at + 1, ?) WHERE id = ?');
  const inFolder = sql.prepare<{ path: string; bytes: number; mtime_ms: number; missing_at: number | null }>(
    'locations.inFolder',
    'SELECT path, bytes, mtime_ms, missing_at FROM image_locations WHERE folder_id = ? AND path > ? ORDER BY path LIMIT ?',
  );
  // Present locations first, under a folder still listed: only those may be served.
  const originalStmt = sql.prepare<{ path: string; root: string }>(
    'locations.original',
    `SELECT l.path, f.path AS root FROM image_locations AS l JOIN import_folders AS f ON f.id = l.folder_id
     WHERE l.image_id = ? ORDER BY l.missing_at IS NOT NULL, l.seen_at, l.path LIMIT 1`,
  );
  const folderJobs = sql.prepare<{ job_id: string }>(
    'folders.jobs',
    `SELECT DISTINCT i.job_id FROM image_locations AS l JOIN images AS i ON i.id = l.image_id
     JOIN jobs AS j ON j.id = i.job_id WHERE l.folder_id = ? AND i.linked = 1 AND j.trashed_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM image_locations AS o WHERE o.image_id = l.image_id
         AND (o.folder_id IS NULL OR o.folder_id <> l.folder_id))`,
  );
  const trashJob = sql.prepare(
    'folders.trashJob',
    "UPDATE jobs SET trashed_at = @now, updated_at = @now WHERE id = @id AND trashed_at IS NULL AND status = 'succeeded'",
  );
  const deleteFolderLocations = sql.prepare(
    'folders.dropLocations',
    'DELETE FROM image_locations WHERE folder_id = ? AND missing_at IS NOT NULL',
  );
  const deleteFolder = sql.prepare('folders.delete', 'DELETE FROM import_folders WHERE id = ?');
  const thumblessStmt = sql.prepare<{ imageId: string; jobId: string }>(
    'images.thumbless',
    'SELECT id AS imageId, job_id AS jobId FROM images WHERE thumb_path IS NULL ORDER BY id DESC LIMIT ?',
  );
  const setThumbStmt = sql.prepare<{ job_id: string }>(
    'images.setThumb',
    'UPDATE images SET thumb_path = ? WHERE id = ? AND thumb_path IS NULL RETURNING job_id',
  );

  // The job moves on in time, so a client holding it takes the summary with its thumbnail as the newer one.
  const setThumbTx = ctx.db.transaction((imageId: string, thumbPath: string): string | null => {
    const jobId = setThumbStmt.get(thumbPath, imageId)?.job_id ?? null;
    if (jobId !== null) touchJob.run(ctx.now(), jobId);
    return jobId;
  });

  const record = (id: string): ImportRecord => {
    const row = byId.get(id);
    if (row === undefined) throw new AppError('not_found', `There is no import ${id}.`, { details: { id } });
    return toRecord(row);
  };

  const commitTx = ctx.db.transaction((importId: string | null, outcomes: FileOutcome[]): CommitResult => {
    const now = ctx.now();
    const counts = { imported: 0, duplicates: 0, skipped: 0, failed: 0 };
    const created: string[] = [];
    const touched = new Set<string>();
    for (const outcome of outcomes) {
      let status: 'imported' | 'duplicate' | 'skipped' | 'failed' = 'duplicate';
      let reason: string | null = null;
      if (outcome.kind === 'imported') {
        // The same content may have been committed by an earlier file of this very batch: one image, two places.
        const existing = bySha.get(outcome.image.image.sha256);
        const imageId = existing?.id ?? outcome.image.image.id;
        if (existing === undefined) {
          jobs.insert(outcome.image);
          created.push(outcome.image.jobId);
          counts.imported += 1;
          status = 'imported';
        } else {
          counts.duplicates += 1;
          touched.add(existing.job_id);
        }
        if (outcome.path !== null) {
          upsertLocation.run({
            path: outcome.path,
            imageId,
            folderId: outcome.folderId,
            bytes: outcome.bytes,
            mtime: Math.trunc(outcome.mtimeMs),
            now,
          });
          dropMissingOf.run(imageId, outcome.path);
        }
      } else if (outcome.kind === 'duplicate') {
        upsertLocation.run({
          path: outcome.path,
          imageId: outcome.imageId,
          folderId: outcome.folderId,
          bytes: outcome.bytes,
          mtime: Math.trunc(outcome.mtimeMs),
          now,
        });
        dropMissingOf.run(outcome.imageId, outcome.path);
        const job = jobOfImage.get(outcome.imageId);
        if (job !== undefined) touched.add(job.job_id);
        counts.duplicates += 1;
      } else if (outcome.kind === 'unchanged') {
        counts.duplicates += 1;
      } else {
        status = outcome.kind;
        reason = outcome.reason;
        counts[outcome.kind] += 1;
      }
      if (importId !== null) markFile.run({ status, reason, importId, seq: outcome.seq });
    }
    for (const id of touched) touchJob.run(now, id);
    if (importId !== null) bump.run({ ...counts, now, id: importId });
    return { created, touched: [...touched].filter((id) => !created.includes(id)) };
  });

  const goneTx = ctx.db.transaction((given: string[]): CommitResult => {
    const now = ctx.now();
    const touched = new Set<string>();
    // A folder removed or moved away whole arrives as its own path: every known file below it is gone.
    const paths = given.flatMap((p) =>
      goneLocation.get(p) === undefined ? below.all(`${p}${sep}`, `${p}${AFTER_SEP}`).map((r) => r.path) : [p],
    );
    for (const path of paths) {
      const row = goneLocation.get(path);
      if (row === undefined || row.missing_at !== null) continue;
      if (row.others > 0) deleteLocation.run(path);
      else markMissing.run(now, path);
      const job = jobOfImage.get(row.image_id);
      if (job !== undefined) touched.add(job.job_id);
    }
    for (const id of touched) touchJob.run(now, id);
    return { created: [], touched: [...touched] };
  });

  const addFilesTx = ctx.db.transaction(
    (importId: string, files: Array<{ path: string; folderId: string }>): number => {
      let seq = maxSeq.get(importId)?.seq ?? 0;
      let added = 0;
      for (const file of files) {
        if (insertFile.run(importId, seq + 1, file.path, file.folderId).changes === 1) {
          seq += 1;
          added += 1;
        }
      }
      if (added > 0) addFound.run(added, ctx.now(), importId);
      return added;
    },
  );

  const removeFolderTx = ctx.db.transaction((id: string): { trashed: string[] } => {
    if (folderById.get(id) === undefined)
      throw new AppError('not_found', `There is no library folder ${id}.`, { details: { id } });
    const now = ctx.now();
    const trashed: string[] = [];
    for (const { job_id } of folderJobs.all(id)) {
      if (trashJob.run({ now, id: job_id }).changes === 1) trashed.push(job_id);
    }
    deleteFolderLocations.run(id);
    deleteFolder.run(id);
    return { trashed };
  });

  return {
    reads: {
      get: (id) => {
        const row = byId.get(id);
        return row === undefined ? null : toRecord(row);
      },
      list: (limit) => newest.all(limit).map(toRecord),
      running: () => runningRows.all().map(toRecord),
      problems: (id, limit): ImportProblem[] => problemsStmt.all(id, limit),
      folder: (id) => {
        const row = folderById.get(id);
        return row === undefined ? null : toFolder(row);
      },
      folders: () => folderRows.all().map((row) => ({ ...toFolder(row), images: row.images, missing: row.missing })),
      folderList: () => folderPlain.all().map(toFolder),
      pending: (importId, afterSeq, limit): PendingFile[] => pendingStmt.all(importId, afterSeq, limit),
      location(path): KnownLocation | null {
        const row = locationStmt.get(path);
        if (row === undefined) return null;
        return {
          imageId: row.image_id,
          jobId: row.job_id,
          bytes: row.bytes,
          mtimeMs: row.mtime_ms,
          missing: row.missing_at !== null,
        };
      },
      imageBySha(sha256) {
        const row = bySha.get(sha256);
        return row === undefined ? null : { imageId: row.id, jobId: row.job_id };
      },
      locationsIn: (folderId, afterPath, limit) =>
        inFolder
          .all(folderId, afterPath, limit)
          .map((r) => ({ path: r.path, bytes: r.bytes, mtimeMs: r.mtime_ms, missing: r.missing_at !== null })),
      original: (imageId) => originalStmt.get(imageId) ?? null,
      thumbless: (limit) => thumblessStmt.all(limit),
      sourceCounts(sources: readonly ImageSource[], cap: number): SourceCount[] {
        return sources.flatMap((source) => {
          // One past the cap tells "exactly cap" from "more than cap".
          const n = sourceCount.get(source, cap + 1)?.n ?? 0;
          return n === 0 ? [] : [{ source, images: Math.min(n, cap), capped: n > cap }];
        });
      },
    },
    writes: {
      create({ id, paths, mode, watch }) {
        const now = ctx.now();
        insertImport.run(id, mode, watch ? 1 : 0, JSON.stringify(paths), now, now);
        return record(id);
      },
      setStatus(id, status) {
        const current = record(id);
        if (FINISHED.includes(current.status)) {
          if (current.status === status) return current;
          throw new AppError('conflict', `This import is already ${current.status}.`, {
            details: { id, status: current.status },
          });
        }
        setStatusStmt.run({ id, status, now: ctx.now(), finished: FINISHED.includes(status) ? 1 : 0 });
        return record(id);
      },
      ensureFolder({ path, isFile, mode, watch }) {
        const existing = folderByPath.get(path);
        if (existing !== undefined) {
          if (watch && existing.watch === 0) watchFolder.run(existing.id);
          return existing.id;
        }
        const id = uuidv7(ctx.now());
        insertFolder.run(id, path, isFile ? 1 : 0, mode, watch ? 1 : 0, ctx.now());
        return id;
      },
      addFiles: (importId, files) => (files.length === 0 ? 0 : addFilesTx.immediate(importId, files)),
      scanDone: (importId) => void scanDoneStmt.run(ctx.now(), importId),
      commit: (importId, outcomes) =>
        outcomes.length === 0
          ? { created: [], touched: [] }
          : sql.time('imports.commit', () => commitTx.immediate(importId, outcomes)),
      markGone: (paths) => (paths.length === 0 ? { created: [], touched: [] } : goneTx.immediate(paths)),
      removeFolder: (id) => removeFolderTx.immediate(id),
      setFolderScanned: (id) => void scanned.run(ctx.now(), id),
      setFolderWatch(id, watch) {
        const folder = folderById.get(id);
        if (folder === undefined)
          throw new AppError('not_found', `There is no library folder ${id}.`, { details: { id } });
        if (folder.is_file === 1 && watch)
          throw new AppError(
            'invalid_request',
            'A single imported file cannot be watched: import its folder to watch it.',
            {
              details: { id },
            },
          );
        setWatchStmt.run(watch ? 1 : 0, id);
      },
      setThumb: (imageId, thumbPath) => setThumbTx.immediate(imageId, thumbPath),
    },
  };
}
