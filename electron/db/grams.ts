/**
 * The search index's tokens (jobs_grams, migration 0004). Every 1, 2 and 3 code point substring of the folded text
 * is one ASCII token: a kind letter then the UTF-8 bytes in hex, so the `ascii` tokenizer keeps it whole and any
 * script, symbol or FTS syntax character is indexed literally. A term of 1–3 code points is then exactly one token;
 * a longer one contains all of its trigrams (a superset, checked with instr() on the row). Substrings holding a space
 * or a newline are left out: a search term never contains whitespace, and they are a third of all substrings.
 */

const KIND = ['', 'u', 'b', 't'] as const;
const hexCache = new Map<string, string>();

function hexOf(codePoint: string): string {
  let hex = hexCache.get(codePoint);
  if (hex === undefined) {
    hex = Buffer.from(codePoint, 'utf8').toString('hex');
    // Bounded: the folded texts of one library use a few thousand distinct code points at most.
    if (hexCache.size < 65_536) hexCache.set(codePoint, hex);
  }
  return hex;
}

/** The token of a 1–3 code point string. */
function token(hexes: readonly string[], start: number, length: 1 | 2 | 3): string {
  let out = KIND[length];
  for (let i = start; i < start + length; i += 1) out += hexes[i];
  return out;
}

const SPACE = hexOf(' ');
const NEWLINE = hexOf('\n');
const isBreak = (hex: string | undefined) => hex === SPACE || hex === NEWLINE;

/** Every token of a stored text, space-separated (what jobs_grams indexes for a row). */
export function gramsOf(text: string): string {
  const hexes = Array.from(text, hexOf);
  const out: string[] = [];
  for (let i = 0; i < hexes.length; i += 1) {
    if (isBreak(hexes[i])) continue;
    out.push(token(hexes, i, 1));
    if (i + 1 >= hexes.length || isBreak(hexes[i + 1])) continue;
    out.push(token(hexes, i, 2));
    if (i + 2 >= hexes.length || isBreak(hexes[i + 2])) continue;
    out.push(token(hexes, i, 3));
  }
  return out.join(' ');
}

/** The tokens a search term needs: itself when 1–3 code points long, else each distinct trigram. */
export function termTokens(term: string): string[] {
  const hexes = Array.from(term, hexOf);
  if (hexes.length <= 3) return hexes.length === 0 ? [] : [token(hexes, 0, hexes.length as 1 | 2 | 3)];
  const out = new Set<string>();
  for (let i = 0; i + 3 <= hexes.length; i += 1) out.add(token(hexes, i, 3));
  return [...out];
}

/** A term of 1–3 code points is matched exactly by its one token; longer terms also need instr(). */
export function tokenIsExact(term: string): boolean {
  const length = [...term].length;
  return length > 0 && length <= 3;
}

/** An FTS5 query requiring every token (quoted: a token is never an FTS keyword or syntax). */
export function matchAll(tokens: readonly string[]): string {
  return tokens.map((t) => `"${t}"`).join(' AND ');
}
