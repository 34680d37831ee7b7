import type { Corrections, ImportedMetadata, StoredRequest } from '../../shared/contract.js';
import { effectiveMetadata, effectiveRequest, effectiveSettings } from '../../shared/corrections/effective.js';
import type { Seed } from '../../shared/seed.js';
import type { StoreContext } from './context.js';
import { createCorrections, type CorrectionRows } from './corrections.js';
import { seedColumns } from './images.js';
import { facetsOf, type JobFacets } from './facets.js';
import { searchTextOf } from './fold.js';
import { ROW_BYTES_SQL } from './job-submit.js';
import { createNotes, type NoteRows } from './notes.js';

interface JobRow {
  source: string;
  request_json: string;
  metadata_json: string | null;
  result_json: string | null;
  search_text: string;
}

/** The first part swapped for another when the text starts with it, else the other added as a line of its own. */
function swapHead(text: string, from: string, to: string): string {
  if (from === to) return text;
  return text.startsWith(from) ? `${to}${text.slice(from.length)}` : `${text}\n${to}`;
}

function swapTail(text: string, from: string, to: string): string {
  if (from === to) return text;
  return from.length > 0 && text.endsWith(`\n${from}`)
    ? `${text.slice(0, text.length - from.length)}${to}`
    : `${text}\n${to}`;
}

/**
 * Keeps a job's search columns on its effective settings: the corrected prompt, model, sampler, steps, CFG, size and
 * seed in the columns the query language reads (jobs.*_key, steps, cfg, width, height, images.seed), and the corrected
 * words plus the notes in jobs.search_text. request_json and metadata_json stay the file's. The text the file made is
 * kept in annotated_search while anything is added, so reverting restores it exactly, and a search text rewritten since
 * (a re-read of the file) becomes the new base.
 */
export function createAnnotatedSearch(ctx: StoreContext, corrections: CorrectionRows, notes: NoteRows) {
  const { sql } = ctx;
  const jobRow = sql.prepare<JobRow>(
    'annotated.job',
    'SELECT source, request_json, metadata_json, result_json, search_text FROM jobs WHERE id = ?',
  );
  const baseOf = sql.prepare<{ base: string; written: string }>(
    'annotated.base',
    'SELECT base, written FROM annotated_search WHERE job_id = ?',
  );
  const saveBase = sql.prepare(
    'annotated.save',
    `INSERT INTO annotated_search (job_id, base, written) VALUES (?, ?, ?)
     ON CONFLICT (job_id) DO UPDATE SET base = excluded.base, written = excluded.written`,
  );
  const dropBase = sql.prepare('annotated.drop', 'DELETE FROM annotated_search WHERE job_id = ?');
  const setText = sql.prepare(
    'annotated.setText',
    'UPDATE jobs SET search_text = ?, updated_at = max(updated_at + 1, ?) WHERE id = ?',
  );
  const setSettings = sql.prepare(
    'annotated.setSettings',
    `UPDATE jobs SET prompt = ?, negative_prompt = ?, model = ?, width = ?, height = ?, model_key = ?, sampler_key = ?,
       steps = ?, cfg = ?, negative_key = ?, updated_at = max(updated_at + 1, ?) WHERE id = ?`,
  );
  const setSeed = sql.prepare('annotated.setSeed', 'UPDATE images SET seed = ?, seed_digits = ? WHERE job_id = ?');
  // The logical size follows the text, as at import; a job still running keeps the room reserved for its result.
  const resize = sql.prepare(
    'annotated.resize',
    `UPDATE jobs SET logical_bytes = ${ROW_BYTES_SQL} WHERE id = ? AND status NOT IN ('queued', 'running')`,
  );

  /** The settings columns as the file made them (imported-jobs.ts) or as corrected. */
  function settingsColumns(jobId: string, job: JobRow, c: Corrections): { file: JobFacets; effective: JobFacets } {
    const request = JSON.parse(job.request_json) as StoredRequest;
    const metadata = job.metadata_json === null ? null : (JSON.parse(job.metadata_json) as ImportedMetadata);
    const resultSeed = job.result_json === null ? undefined : (JSON.parse(job.result_json) as { seed?: Seed }).seed;
    const fileModel = metadata?.model?.slice(0, 200) ?? request.model ?? null;
    const fileSeed = request.seed ?? resultSeed;
    const file = facetsOf({
      provider: job.source,
      model: fileModel,
      request,
      metadata,
      seeds: fileSeed === undefined ? [] : [fileSeed],
    });
    const settings = effectiveSettings({ request, metadata, seed: resultSeed }, c);
    const seed = c.seed ?? fileSeed;
    const effective = facetsOf({
      provider: job.source,
      model: c.model ?? fileModel,
      request: effectiveRequest(request, c),
      metadata: effectiveMetadata(metadata ?? {}, c),
      seeds: seed === undefined ? [] : [seed],
    });
    const now = ctx.now();
    setSettings.run(
      settings.prompt,
      settings.negativePrompt ?? null,
      c.model ?? fileModel,
      settings.width,
      settings.height,
      effective.modelKey,
      effective.samplerKey,
      effective.steps,
      effective.cfg,
      effective.negativeKey,
      now,
      jobId,
    );
    setSeed.run(...seedColumns(seed), jobId);
    return { file, effective };
  }

  /** Rewrites the job's search columns from its file's settings, corrections and notes; call after any change. */
  return function reindex(jobId: string): void {
    const job = jobRow.get(jobId);
    if (job === undefined) return;
    const stored = baseOf.get(jobId);
    const base = stored !== undefined && stored.written === job.search_text ? stored.base : job.search_text;
    const c = corrections.of(jobId);
    const corrected = Object.keys(c).length > 0;
    let text = base;
    // Atelier's own jobs are never corrected: their columns are what they were made with.
    if (job.source !== 'atelier') {
      const { file, effective } = settingsColumns(jobId, job, c);
      if (corrected) {
        const request = JSON.parse(job.request_json) as StoredRequest;
        const metadata = job.metadata_json === null ? null : (JSON.parse(job.metadata_json) as ImportedMetadata);
        const settings = effectiveSettings({ request, metadata }, c);
        text = swapHead(text, searchTextOf(request.prompt), searchTextOf(settings.prompt));
        text = swapTail(text, file.settingsText, effective.settingsText);
      }
    }
    const noted = notes.foldedForJob(jobId);
    if (noted.length > 0) text = `${text}\n${noted}`;
    if (text === base) dropBase.run(jobId);
    else saveBase.run(jobId, base, text);
    if (text !== job.search_text) {
      setText.run(text, ctx.now(), jobId);
      resize.run(jobId);
    }
  };
}

export type Reindex = ReturnType<typeof createAnnotatedSearch>;

/**
 * The same reindex for a writer outside the annotation store: a re-read of an imported file (rereads.ts) calls it
 * in its transaction, right after writing the file's fields, so search keeps the corrections and notes at once.
 */
export function createReindex(ctx: StoreContext): Reindex {
  return createAnnotatedSearch(ctx, createCorrections(ctx), createNotes(ctx));
}
