import { foldForSearch } from '../../shared/search-fold.js';

export { foldForSearch };

/** The whitespace-separated terms of a query, folded; every one must match. */
export function searchTerms(query: string): string[] {
  return foldForSearch(query)
    .split(/\s+/u)
    .filter((t) => t.length > 0);
}

/** The folded prompt and negative prompt as stored in jobs.search_text (and indexed by jobs_grams). */
export function searchTextOf(prompt: string, negativePrompt: string | null | undefined): string {
  // A newline separates the two: search terms never contain whitespace, so no match can span both.
  return negativePrompt ? `${foldForSearch(prompt)}\n${foldForSearch(negativePrompt)}` : foldForSearch(prompt);
}
