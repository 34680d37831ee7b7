import type { QueryError } from './ast.js';

/** A piece of the query: a `|`, or an atom (a word, a "phrase", or key:value with the value maybe quoted). */
export type Token =
  /** tight: no space on either side (`model:a|b`), so the next value belongs to the same key. */
  | { kind: 'bar'; at: number; tight: boolean }
  | { kind: 'atom'; at: number; negated: boolean; key: string | null; value: string; quoted: boolean; valueAt: number };

const KEY = /^([A-Za-z]+):/;

/** Reads a "quoted" run starting at `at` (on the opening quote); `\"` and `\\` are escapes. */
function quoted(text: string, at: number): { value: string; end: number } | QueryError {
  let value = '';
  for (let i = at + 1; i < text.length; i += 1) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      value += text[i + 1];
      i += 1;
    } else if (c === '"') {
      return { value, end: i + 1 };
    } else {
      value += c;
    }
  }
  return { at, message: 'This quote is never closed: add the closing ".' };
}

const isSpace = (c: string | undefined): boolean => c !== undefined && /\s/u.test(c);

/** Splits a query into tokens, or says where it cannot. */
export function scan(text: string): Token[] | QueryError {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    if (isSpace(text[i])) {
      i += 1;
      continue;
    }
    if (text[i] === '|') {
      tokens.push({
        kind: 'bar',
        at: i,
        tight: i > 0 && !isSpace(text[i - 1]) && i + 1 < text.length && !isSpace(text[i + 1]),
      });
      i += 1;
      continue;
    }
    const at = i;
    if (text[i] === '-' && (i + 1 === text.length || isSpace(text[i + 1])))
      return { at, message: 'A lone "-" needs a word after it.' };
    let negated = false;
    if (text[i] === '-' && i + 1 < text.length && !isSpace(text[i + 1])) {
      negated = true;
      i += 1;
    }
    let key: string | null = null;
    const keyMatch = KEY.exec(text.slice(i, i + 40));
    if (keyMatch !== null) {
      key = keyMatch[1]!.toLowerCase();
      i += keyMatch[0].length;
    }
    const valueAt = i;
    if (text[i] === '"') {
      const q = quoted(text, i);
      if ('message' in q) return q;
      tokens.push({ kind: 'atom', at, negated, key, value: q.value, quoted: true, valueAt });
      i = q.end;
      continue;
    }
    let end = i;
    while (end < text.length && !isSpace(text[end]) && text[end] !== '|' && text[end] !== '"') end += 1;
    if (text[end] === '"')
      return { at: end, message: 'A quote belongs at the start of a word or a value: put a space before it.' };
    if (end === i) return { at, message: key === null ? 'A lone "-" needs a word after it.' : `Give ${key}: a value.` };
    if (negated && key === null && text[i] === '-') return { at, message: 'One "-" is enough to leave a word out.' };
    tokens.push({ kind: 'atom', at, negated, key, value: text.slice(i, end), quoted: false, valueAt });
    i = end;
  }
  return tokens;
}
