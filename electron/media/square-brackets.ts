export interface Bracketed {
  /** The text of each `[…]`, in order. */
  inside: string[];
  /** The text around them: one piece more than `inside`. */
  outside: string[];
}

/**
 * The `[…]` spans of a text as the global pattern `\[([^\]]*)\]` finds them (each `[` closes at the first `]` after
 * it), in one pass: the pattern rescans to the end from every `[` of a text whose brackets never close.
 */
export function splitSquareBrackets(text: string): Bracketed {
  const inside: string[] = [];
  const outside: string[] = [];
  let copied = 0;
  for (let open = text.indexOf('['); open >= 0; open = text.indexOf('[', copied)) {
    const close = text.indexOf(']', open + 1);
    if (close < 0) break;
    outside.push(text.slice(copied, open));
    inside.push(text.slice(open + 1, close));
    copied = close + 1;
  }
  outside.push(text.slice(copied));
  return { inside, outside };
}
