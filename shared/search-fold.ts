/** Search folding, one function for the engine's index and the renderer's own checks of arriving jobs. */

// Accents on Latin, Greek and Cyrillic letters (č, é, ά, ё); marks in other scripts (Japanese dakuten) change the word.
const ACCENTED = /([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu;

/**
 * Case-, accent- and form-insensitive text for search, the same for stored prompts and for the query.
 * NFKC first (full-width and ligatures become plain letters), then lower case for every script, with the Greek
 * final sigma mapped to σ because JS lowers Σ differently at the end of a word; then accents go (NFD, marks after a
 * Latin, Greek or Cyrillic letter dropped) so `cervena` finds `červená`, and NFC puts the rest back together.
 * NUL becomes a space: SQLite's length() and substr() stop at it, so the index triggers could not see past it.
 */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/ς/g, 'σ')
    .normalize('NFD')
    .replace(ACCENTED, '$1')
    .normalize('NFC')
    .replaceAll('\u0000', ' ');
}
