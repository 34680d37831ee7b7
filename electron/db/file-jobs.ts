import { operationOf, type StoredRequest } from '../../shared/contract.js';
import { byteLength } from './bounds.js';
import type { StoreContext } from './context.js';
import { withSettings, type JobFacets } from './facets.js';
import { gramsOf } from './grams.js';
import { ROW_OVERHEAD_BYTES } from './jobs.js';

/** A succeeded job read from an image file (rebuilt from Atelier's own record, or imported from another tool). */
export interface FileJobRow {
  id: string;
  createdAt: number;
  provider: string;
  model: string | null;
  request: StoredRequest;
  count: number;
  result: Record<string, unknown>;
  /** Folded prompt text for jobs.search_text and its token index (the settings line is added here). */
  searchText: string;
  facets: JobFacets;
  source: string;
  metadata: unknown;
  /** The readers' version that read an imported file (migration 16); null for Atelier's own records. */
  readerVersion?: number | null;
}

/**
 * Inserts a finished job with its search tokens in one row write: the jobs_grams trigger stands aside (migration
 * 0004) and the logical size is the same sum ROW_BYTES_SQL makes (a second UPDATE cost a third of an import commit).
 */
export function createFileJobWriter(ctx: StoreContext) {
  const { sql } = ctx;
  const insert = sql.prepare(
    'fileJobs.insert',
    `INSERT INTO jobs (id, status, created_at, updated_at, completed_at, provider, model, prompt, negative_prompt, width,
       height, count, request_json, result_json, search_text, progress_stage, progress_fraction, source, metadata_json,
       logical_bytes, model_key, sampler_key, scheduler_key, steps, cfg, negative_key, operation, parent_image_id,
       reader_version)
     VALUES (?, 'succeeded', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'done', 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertLora = sql.prepare(
    'fileJobs.insertLora',
    'INSERT OR IGNORE INTO job_loras (job_id, key, name) VALUES (?, ?, ?)',
  );
  const gramsFromApp = sql.prepare('fileJobs.gramsFromApp', 'UPDATE store_totals SET grams_from_app = ? WHERE id = 1');
  const insertGrams = sql.prepare('fileJobs.insertGrams', 'INSERT INTO jobs_grams (rowid, grams) VALUES (?, ?)');

  return (row: FileJobRow): void => {
    const { request, facets } = row;
    const searchText = withSettings(row.searchText, facets);
    const requestJson = JSON.stringify(request);
    const resultJson = JSON.stringify(row.result);
    const logicalBytes = byteLength(requestJson) + byteLength(searchText) + byteLength(resultJson) + ROW_OVERHEAD_BYTES;
    // A job rebuilt from Atelier's own file keeps its lineage (the embedded request names its source image).
    const lineage = operationOf(request);
    gramsFromApp.run(1);
    const inserted = insert.run(
      row.id,
      row.createdAt,
      ctx.now(),
      row.createdAt,
      row.provider,
      row.model,
      request.prompt,
      request.negativePrompt ?? null,
      request.width,
      request.height,
      row.count,
      requestJson,
      resultJson,
      searchText,
      row.source,
      row.metadata === undefined ? null : JSON.stringify(row.metadata),
      logicalBytes,
      facets.modelKey,
      facets.samplerKey,
      facets.schedulerKey,
      facets.steps,
      facets.cfg,
      facets.negativeKey,
      'error' in lineage ? 'generate' : lineage.operation,
      'error' in lineage ? null : (lineage.parentImageId ?? null),
      row.readerVersion ?? null,
    );
    gramsFromApp.run(0);
    insertGrams.run(inserted.lastInsertRowid, gramsOf(searchText));
    for (const lora of facets.loras) insertLora.run(row.id, lora.key, lora.name);
  };
}
