import { normalizeSeed } from '../../shared/seed.js';
import { SOURCE_LABELS } from '../../shared/source-labels.js';
import type { StoreContext } from './context.js';
import type { Events } from './events.js';
import { foldForSearch, searchTextOf } from './fold.js';
import { gramsOf } from './grams.js';
import type { ImportedImage } from './import-types.js';
import type { Images } from './images.js';
import { byteLength } from './bounds.js';
import { ROW_OVERHEAD_BYTES } from './jobs.js';


/** Writes one imported file as a succeeded job with its one image, searchable like a generated one. */
export function createImportedJobs(ctx: StoreContext, images: Images, events: Events) {
  const { sql } = ctx;
  const insert = sql.prepare(
    'imported.insert',
    `INSERT INTO jobs (id, status, created_at, updated_at, completed_at, provider, model, prompt, negative_prompt, width,
       height, count, request_json, result_json, search_text, progress_stage, progress_fraction, source, metadata_json,
       logical_bytes)
     VALUES (?, 'succeeded', ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, 'done', 1, ?, ?, ?)`,
  );
  const gramsFromApp = sql.prepare('imported.gramsFromApp', 'UPDATE store_totals SET grams_from_app = ? WHERE id = 1');
  const insertGrams = sql.prepare('imported.insertGrams', 'INSERT INTO jobs_grams (rowid, grams) VALUES (?, ?)');
  const setLinked = sql.prepare('imported.setLinked', 'UPDATE images SET linked = 1 WHERE id = ?');

  return {
    insert(entry: ImportedImage): void {
      const { request } = entry;
      const result: Record<string, unknown> = { timings: {} };
      const seed = entry.seed === undefined ? null : normalizeSeed(entry.seed);
      if (seed !== null) result.seed = seed;
      const base = searchTextOf(request.prompt, request.negativePrompt);
      const extra = entry.searchExtra.length > 0 ? foldForSearch(entry.searchExtra) : '';
      const searchText = extra.length > 0 ? `${base}\n${extra}` : base;
      const requestJson = JSON.stringify(request);
      const resultJson = JSON.stringify(result);
      // The same sum ROW_BYTES_SQL makes, computed here: a second UPDATE of the row cost a third of the commit.
      const logicalBytes = byteLength(requestJson) + byteLength(searchText) + byteLength(resultJson) + ROW_OVERHEAD_BYTES;
      gramsFromApp.run(1);
      const inserted = insert.run(
        entry.jobId,
        entry.createdAt,
        ctx.now(),
        entry.createdAt,
        entry.source,
        entry.model ?? request.model ?? null,
        request.prompt,
        request.negativePrompt ?? null,
        request.width,
        request.height,
        requestJson,
        resultJson,
        searchText,
        entry.source,
        JSON.stringify(entry.metadata),
        logicalBytes,
      );
      gramsFromApp.run(0);
      insertGrams.run(inserted.lastInsertRowid, gramsOf(searchText));
      const { linked, ...image } = entry.image;
      images.insertAll(entry.jobId, [image]);
      if (linked) setLinked.run(image.id);
      const how = linked ? 'linked in place' : 'copied into the library';
      const from = entry.source === 'unknown' ? 'an unknown tool' : SOURCE_LABELS[entry.source];
      events.append(entry.jobId, 'imported', `Imported from ${from}, ${how}.`);
    },
  };
}
