/** The search box's autocomplete: what choosing a suggestion does to the text and the caret. */

export interface Replacement {
  from: number;
  to: number;
  insert: string;
  kind: 'key' | 'value';
}

/**
 * Replaces [from, to) with the suggestion. A key (`model:`) leaves the caret right after it, ready for the value;
 * a value ends its term, so a space follows unless one is already there.
 */
export function applySuggestion(text: string, choice: Replacement): { text: string; cursor: number } {
  const from = Math.max(0, Math.min(choice.from, text.length));
  const to = Math.max(from, Math.min(choice.to, text.length));
  const rest = text.slice(to);
  const spacer = choice.kind === 'value' && !/^\s/u.test(rest) ? ' ' : '';
  const inserted = choice.insert + spacer;
  return { text: text.slice(0, from) + inserted + rest, cursor: from + inserted.length };
}

/** The list's next highlighted row for ArrowUp/ArrowDown, wrapping at the ends; -1 (none) for an empty list. */
export function moveHighlight(current: number, delta: 1 | -1, length: number): number {
  if (length === 0) return -1;
  if (current < 0) return delta === 1 ? 0 : length - 1;
  return (current + delta + length) % length;
}

/** The search split around the place a parse error names, to show it marked. */
export function errorPlace(text: string, at: number): { before: string; mark: string; after: string } {
  const i = Math.max(0, Math.min(at, text.length));
  // Past the end (a quote never closed) the mark is an empty place: a caret is drawn there.
  const end = i < text.length ? i + 1 : i;
  return { before: text.slice(0, i), mark: text.slice(i, end), after: text.slice(end) };
}
