import { SIMILAR_DEFAULT_LIMIT, SIMILAR_MAX_LIMIT, type Handlers } from '../../shared/contract.js';
import type { createSimilarIndex } from '../library/similar/similar-index.js';

type SimilarIndex = ReturnType<typeof createSimilarIndex>;

/** `images.similar` and `images.duplicates`, spread into the engine's handlers. */
export function createSimilarHandlers(similar: SimilarIndex): Pick<Handlers, 'images.similar' | 'images.duplicates'> {
  return {
    // The hosts apply the contract's default; a direct call without one gets it here too.
    'images.similar': async ({ imageId, limit }) =>
      similar.similar(imageId, Math.min(SIMILAR_MAX_LIMIT, Math.max(1, Math.trunc(limit ?? SIMILAR_DEFAULT_LIMIT)))),
    'images.duplicates': async ({ cursor }) => similar.duplicates(cursor),
  };
}
