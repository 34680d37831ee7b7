import { normalizeSeed } from '../../shared/seed.js';
import { SOURCE_LABELS } from '../../shared/source-labels.js';
import type { StoreContext } from './context.js';
import type { Events } from './events.js';
import { foldForSearch, searchTextOf } from './fold.js';
import type { ImportedImage } from './import-types.js';
import type { Images } from './images.js';
import { createFileJobWriter } from './file-jobs.js';
import { facetsOf } from './facets.js';

/** Writes one imported file as a succeeded job with its one image, searchable like a generated one. */
export function createImportedJobs(ctx: StoreContext, images: Images, events: Events) {
  const { sql } = ctx;
  const writeJob = createFileJobWriter(ctx);
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
      writeJob({
        id: entry.jobId,
        createdAt: entry.createdAt,
        provider: entry.source,
        model: entry.model ?? request.model ?? null,
        request,
        count: 1,
        result,
        searchText,
        facets: facetsOf({
          provider: entry.source,
          model: entry.model ?? request.model ?? null,
          request,
          metadata: entry.metadata,
          seeds: seed === null ? [] : [seed],
        }),
        source: entry.source,
        metadata: entry.metadata,
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
