import { isLineTerminator } from './regex-classes.js';

/**
 * Where the body of a double-quoted string ends, as the pattern `(?:\\.|[^"\\])*` followed by `"` sees it: the
 * first unescaped `"`, or a backslash that escapes nothing (last, or before a line end), or the text's end.
 * Starts must sit just after a `"` (so a run of backslashes is always paired from its beginning) and arrive in
 * increasing order; a start inside the span last walked is answered from it, so a text full of quotes that never
 * close is walked once, where the backtracking pattern walks it again from every quote.
 */
export function stringEnds(text: string): (start: number) => number {
  const n = text.length;
  const next = (char: string, at: number): number => {
    const found = text.indexOf(char, at);
    return found < 0 ? n : found;
  };
  let from = 0;
  let stop = -1;
  let quote = -1;
  let slash = -1;
  return (start: number): number => {
    if (start >= from && start <= stop) return stop;
    if (start < from) {
      quote = -1;
      slash = -1;
    }
    let at = start;
    for (;;) {
      // The next quote and backslash are found once and reused until the walk passes them.
      if (quote < at) quote = next('"', at);
      if (slash < at) slash = next('\\', at);
      if (quote <= slash) break;
      if (slash + 1 >= n || isLineTerminator(text.charCodeAt(slash + 1))) break;
      at = slash + 2;
    }
    from = start;
    stop = Math.min(quote, slash);
    return stop;
  };
}
