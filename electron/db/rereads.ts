/**
 * Re-reading imported files (migration 16): which jobs older readers read, and writing a new read over the file's
 * own fields. Only what the file says changes; the person's ratings, tags, boards, notes and corrections live in
 * their own tables and are never touched here.
 */
import type { ImageSource } from '../../shared/contract.js';
import { ROW_BYTES_SQL } from './job-submit.js';
import type { StoreContext } from './context.js';
import { withSettings } from './facets.js';
import type { Access } from './guard.js';
import { importedDerived, type ImportedJobFields } from './imported-jobs.js';
import { seedColumns } from './images.js';
import { createReindex } from './annotated-search.js';

/** An imported job to re-read: its one image, whose file is read again. */
export interface RereadTarget {
  jobId: string;
  imageId: string;
  readerVersion: number;
}

export interface RereadCounts {
  /** Imported jobs read by readers older than the version asked about (or marked to be read again). */
  stale: number;
  /** Every imported job. */
  imported: number;
}

export interface RereadReads {
  rereadCounts(version: number): RereadCounts;
  /** The next imported jobs read by older readers: marked ones (version 0) first, then oldest version, by id. */
  staleImported(version: number, limit: number): RereadTarget[];
}

export interface RereadWrites {
  /**
   * Writes a new read of the job's file: `rewritten` when it says something else than before, `unchanged` when it
   * reads the same (only the version moves: nothing to show anew), `gone` when the job is no longer there.
   */
  applyReread(jobId: string, fields: ImportedJobFields, version: number): RereadOutcome;
  /** Records that the file was tried at this version though it could not be read (gone, changed): it keeps its read. */
  markRereadTried(jobId: string, version: number): void;
  /** Marks the imported jobs of these images to be read again (version 0); answers how many were marked. */
  markForReread(imageIds: readonly string[]): number;
  /** Marks every imported job from one tool to be read again (a person's node rules changed). */
  markSourceForReread(source: ImageSource): number;
}

export type RereadStore = RereadReads & RereadWrites;
export type RereadOutcome = 'rewritten' | 'unchanged' | 'gone';

export function createRereads(ctx: StoreContext): Access<RereadReads, RereadWrites> {
  const { sql } = ctx;
  const counts = sql.prepare<{ stale: number; imported: number }>(
    'rereads.counts',
    `SELECT COUNT(*) FILTER (WHERE reader_version < ?) AS stale, COUNT(*) AS imported
       FROM jobs WHERE reader_version IS NOT NULL`,
  );
  const stale = sql.prepare<{ job_id: string; image_id: string; reader_version: number }>(
    'rereads.stale',
    `SELECT j.id AS job_id, i.id AS image_id, j.reader_version
       FROM jobs AS j JOIN images AS i ON i.job_id = j.id AND i.idx = 0
      WHERE j.reader_version IS NOT NULL AND j.reader_version < ?
      ORDER BY j.reader_version, j.id LIMIT ?`,
  );
  const update = sql.prepare(
    'rereads.update',
    `UPDATE jobs SET provider = ?, source = ?, model = ?, prompt = ?, negative_prompt = ?, width = ?, height = ?,
       request_json = ?, result_json = ?, search_text = ?, metadata_json = ?, model_key = ?, sampler_key = ?,
       scheduler_key = ?, steps = ?, cfg = ?, negative_key = ?, reader_version = ?, updated_at = ?
     WHERE id = ? AND reader_version IS NOT NULL`,
  );
  const current = sql.prepare<{
    source: string;
    request_json: string;
    result_json: string | null;
    metadata_json: string;
  }>(
    'rereads.current',
    'SELECT source, request_json, result_json, metadata_json FROM jobs WHERE id = ? AND reader_version IS NOT NULL',
  );
  const resize = sql.prepare('rereads.resize', `UPDATE jobs SET logical_bytes = ${ROW_BYTES_SQL} WHERE id = ?`);
  const dropLoras = sql.prepare('rereads.dropLoras', 'DELETE FROM job_loras WHERE job_id = ?');
  const insertLora = sql.prepare(
    'rereads.insertLora',
    'INSERT OR IGNORE INTO job_loras (job_id, key, name) VALUES (?, ?, ?)',
  );
  const imageSeed = sql.prepare('rereads.imageSeed', 'UPDATE images SET seed = ?, seed_digits = ? WHERE job_id = ?');
  const tried = sql.prepare(
    'rereads.tried',
    'UPDATE jobs SET reader_version = ? WHERE id = ? AND reader_version IS NOT NULL',
  );
  const mark = sql.prepare(
    'rereads.mark',
    `UPDATE jobs SET reader_version = 0
      WHERE id IN (SELECT i.job_id FROM json_each(?) AS ids JOIN images AS i ON i.id = ids.value)
        AND reader_version IS NOT NULL AND reader_version <> 0`,
  );
  const markSource = sql.prepare(
    'rereads.markSource',
    'UPDATE jobs SET reader_version = 0 WHERE source = ? AND reader_version IS NOT NULL AND reader_version <> 0',
  );

  // A person's corrections and notes go back into the search columns in the same transaction as the new read.
  const reindex = createReindex(ctx);
  const apply = ctx.db.transaction((jobId: string, fields: ImportedJobFields, version: number): RereadOutcome => {
    const before = current.get(jobId);
    if (before === undefined) return 'gone';
    const derived = importedDerived(fields);
    const { request, metadata } = fields;
    const { facets } = derived;
    const requestJson = JSON.stringify(request);
    const resultJson = JSON.stringify(derived.result);
    const metadataJson = JSON.stringify(metadata);
    // Most files read the same after an upgrade: only their version moves, and no window is told of a change.
    if (
      before.source === fields.source &&
      before.request_json === requestJson &&
      before.result_json === resultJson &&
      before.metadata_json === metadataJson
    ) {
      tried.run(version, jobId);
      return 'unchanged';
    }
    update.run(
      fields.source,
      fields.source,
      derived.model,
      request.prompt,
      request.negativePrompt ?? null,
      request.width,
      request.height,
      requestJson,
      resultJson,
      withSettings(derived.searchText, facets),
      metadataJson,
      facets.modelKey,
      facets.samplerKey,
      facets.schedulerKey,
      facets.steps,
      facets.cfg,
      facets.negativeKey,
      version,
      ctx.now(),
      jobId,
    );
    resize.run(jobId);
    dropLoras.run(jobId);
    for (const lora of facets.loras) insertLora.run(jobId, lora.key, lora.name);
    imageSeed.run(...seedColumns(derived.seed ?? undefined), jobId);
    reindex(jobId);
    return 'rewritten';
  });

  return {
    reads: {
      rereadCounts(version) {
        const row = counts.get(version)!;
        return { stale: row.stale, imported: row.imported };
      },
      staleImported(version, limit) {
        return stale
          .all(version, limit)
          .map((r) => ({ jobId: r.job_id, imageId: r.image_id, readerVersion: r.reader_version }));
      },
    },
    writes: {
      applyReread: (jobId, fields, version) => apply(jobId, fields, version),
      markRereadTried(jobId, version) {
        tried.run(version, jobId);
      },
      markForReread: (imageIds) => (imageIds.length === 0 ? 0 : mark.run(JSON.stringify(imageIds)).changes),
      markSourceForReread: (source) => markSource.run(source).changes,
    },
  };
}
