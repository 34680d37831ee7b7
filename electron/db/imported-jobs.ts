import { normalizeSeed, type Seed } from '../../shared/seed.js';
import { SOURCE_LABELS } from '../../shared/source-labels.js';
import type { StoreContext } from './context.js';
import type { Events } from './events.js';
import { facetsOf, type JobFacets } from './facets.js';
import { foldForSearch, searchTextOf } from './fold.js';
import type { ImportedImage } from './import-types.js';
import type { Images } from './images.js';
import { createFileJobWriter } from './file-jobs.js';

/** What a read of a file sets on its job: at import, and again on a re-read (rereads.ts). */
export type ImportedJobFields = Pick<
  ImportedImage,
  'source' | 'request' | 'model' | 'seed' | 'metadata' | 'searchExtra'
>;

/** The columns a file's fields derive: search text (before the settings line), facets, model and seed. */
export interface ImportedDerived {
  searchText: string;
  facets: JobFacets;
  model: string | null;
  seed: Seed | null;
  result: Record<string, unknown>;
}

export function importedDerived(fields: ImportedJobFields): ImportedDerived {
  const { request } = fields;
  const seed = fields.seed === undefined ? null : normalizeSeed(fields.seed);
  const result: Record<string, unknown> = { timings: {} };
  if (seed !== null) result.seed = seed;
  const base = searchTextOf(request.prompt);
  const extra = fields.searchExtra.length > 0 ? foldForSearch(fields.searchExtra) : '';
  const model = fields.model ?? request.model ?? null;
  return {
    searchText: extra.length > 0 ? `${base}\n${extra}` : base,
    facets: facetsOf({
      provider: fields.source,
      model,
      request,
      metadata: fields.metadata,
      seeds: seed === null ? [] : [seed],
    }),
    model,
    seed,
    result,
  };
}

/** Writes one imported file as a succeeded job with its one image, searchable like a generated one. */
export function createImportedJobs(ctx: StoreContext, images: Images, events: Events) {
  const { sql } = ctx;
  const writeJob = createFileJobWriter(ctx);
  const setLinked = sql.prepare('imported.setLinked', 'UPDATE images SET linked = 1 WHERE id = ?');

  return {
    insert(entry: ImportedImage): void {
      const derived = importedDerived(entry);
      writeJob({
        id: entry.jobId,
        createdAt: entry.createdAt,
        provider: entry.source,
        model: derived.model,
        request: entry.request,
        count: 1,
        result: derived.result,
        searchText: derived.searchText,
        facets: derived.facets,
        source: entry.source,
        metadata: entry.metadata,
        readerVersion: entry.readerVersion,
      });
      const { linked, ...image } = entry.image;
      images.insertAll(entry.jobId, [image]);
      if (linked) setLinked.run(image.id);
      const how = linked ? 'linked in place' : 'copied into the library';
      const from = entry.source === 'unknown' ? 'an unknown tool' : SOURCE_LABELS[entry.source];
      events.append(entry.jobId, 'imported', `Imported from ${from}, ${how}.`);
    },
  };
}
