import { foldForSearch } from '../../shared/search-fold.js';

export { foldForSearch };

/** The whitespace-separated terms of a query, folded; every one must match. */
export function searchTerms(query: string): string[] {
  return foldForSearch(query)
    .split(/\s+/u)
    .filter((t) => t.length > 0);
}

/**
 * The folded prompt as it starts jobs.search_text (indexed by jobs_grams): free words search the prompt, never the
 * negative prompt, which `negative:` reads from jobs.negative_key (migration 0020 took it out of older rows).
 */
export function searchTextOf(prompt: string): string {
  return foldForSearch(prompt);
}

/** The layout before version 21, prompt then negative prompt: only migration 0002 writes it (0021 takes it out). */
export function searchTextBefore21(prompt: string, negativePrompt: string | null | undefined): string {
  return negativePrompt ? `${foldForSearch(prompt)}\n${foldForSearch(negativePrompt)}` : foldForSearch(prompt);
}
