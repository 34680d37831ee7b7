import { isWordChar } from '../../media/regex-classes.js';
import { stringEnds } from '../../media/string-ends.js';

export interface JsonTokens {
  /** The text with each bare NaN/Infinity (Python's json.dumps writes them) made a string. */
  text: string;
  /** An integer of 16 digits or more is outside any string: only a lossless parse keeps it exact. */
  long: boolean;
}

const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;

/** Length of a `-?\b(?:NaN|Infinity)\b` token starting at `at`, or 0. */
function nonFiniteAt(text: string, at: number): number {
  const word = text.charCodeAt(at) === 0x2d ? at + 1 : at;
  // Without the sign, the word must not continue one before it (the pattern's leading \b).
  if (word === at && at > 0 && isWordChar(text.charCodeAt(at - 1))) return 0;
  for (const name of ['NaN', 'Infinity']) {
    if (text.startsWith(name, word) && !isWordChar(text.charCodeAt(word + name.length))) return word + name.length - at;
  }
  return 0;
}

/**
 * What the global replace of `"(?:[^"\\]|\\.)*"|-?\b(?:NaN|Infinity)\b|\d{16,}` did, in one pass: strings are
 * skipped whole, NaN/Infinity quoted, long integers noticed. The pattern rescans an unclosed string from every
 * quote inside it (`"\"\"\"…`), quadratic.
 */
export function scanJsonTokens(text: string): JsonTokens {
  const n = text.length;
  const ends = stringEnds(text);
  const parts: string[] = [];
  let copied = 0;
  let long = false;
  let at = 0;
  while (at < n) {
    const code = text.charCodeAt(at);
    if (code === 0x22) {
      const stop = ends(at + 1);
      // An unclosed string is no token: the scan goes on inside it, as the pattern's did.
      at = stop < n && text.charCodeAt(stop) === 0x22 ? stop + 1 : at + 1;
    } else if (code === 0x2d || code === 0x4e || code === 0x49) {
      const length = nonFiniteAt(text, at);
      if (length > 0) {
        parts.push(text.slice(copied, at), '"', text.slice(at, at + length), '"');
        copied = at + length;
      }
      at += Math.max(1, length);
    } else if (isDigit(code)) {
      let end = at + 1;
      while (end < n && isDigit(text.charCodeAt(end))) end += 1;
      if (end - at >= 16) long = true;
      at = end;
    } else {
      at += 1;
    }
  }
  if (copied === 0) return { text, long };
  parts.push(text.slice(copied));
  return { text: parts.join(''), long };
}
