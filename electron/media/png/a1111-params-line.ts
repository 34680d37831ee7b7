import { isSpace, isWordChar } from '../regex-classes.js';
import { stringEnds } from '../string-ends.js';

/** One `Key: value` of an A1111 params line: the key untrimmed, the value raw (its quotes kept). */
export type ParamEntry = [key: string, value: string];

/** `[\w \-/]`: what a key is made of after its first character. */
function isKeyChar(code: number): boolean {
  return isWordChar(code) || code === 0x20 || code === 0x2d || code === 0x2f;
}

/** The first key at or after `from` (a word character, one key character or more, then ':'): its start and colon. */
function nextKey(line: string, from: number): [number, number] | undefined {
  const n = line.length;
  let at = from;
  while (at < n) {
    if (!isKeyChar(line.charCodeAt(at))) {
      at += 1;
      continue;
    }
    let end = at;
    while (end < n && isKeyChar(line.charCodeAt(end))) end += 1;
    if (end < n && line.charCodeAt(end) === 0x3a) {
      for (let start = at; start <= end - 2; start += 1) if (isWordChar(line.charCodeAt(start))) return [start, end];
    }
    // No key ends inside this run: the next one starts after the character that broke it.
    at = end + 1;
  }
  return undefined;
}

/**
 * The entries A1111's `\s*(\w[\w \-/]+):\s*("(?:\\.|[^\\"])+"|[^,]*)(?:,|$)` finds, found in one pass. That pattern
 * backtracks over every start of a run without ':', quadratic on a long last line (80k characters: 9.6 s).
 */
export function paramEntries(line: string): ParamEntry[] {
  const n = line.length;
  const ends = stringEnds(line);
  const out: ParamEntry[] = [];
  let at = 0;
  while (at < n) {
    const key = nextKey(line, at);
    if (key === undefined) break;
    const name = line.slice(key[0], key[1]);
    let start = key[1] + 1;
    while (start < n && isSpace(line.charCodeAt(start))) start += 1;
    if (line.charCodeAt(start) === 0x22) {
      // A quoted value counts only when it closes right before a comma or the end; otherwise it runs to the comma.
      const close = ends(start + 1);
      const next = line.charCodeAt(close + 1);
      if (close > start + 1 && close < n && line.charCodeAt(close) === 0x22 && (close + 1 === n || next === 0x2c)) {
        out.push([name, line.slice(start, close + 1)]);
        at = close + 2;
        continue;
      }
    }
    const comma = line.indexOf(',', start);
    const end = comma < 0 ? n : comma;
    out.push([name, line.slice(start, end)]);
    at = end + 1;
  }
  return out;
}
