/**
 * Case- and form-insensitive text for search, the same for stored prompts and for the query.
 * NFKC first (full-width and ligatures become plain letters), then lower case for every script, with the Greek
 * final sigma mapped to σ because JS lowers Σ differently at the end of a word, and NFC again after lowering.
 * NUL becomes a space: SQLite's length() and substr() stop at it, so the index triggers could not see past it.
 */
export function foldForSearch(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/ς/g, 'σ').normalize('NFC').replaceAll('\u0000', ' ');
}

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
