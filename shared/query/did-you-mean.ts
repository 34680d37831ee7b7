/** Keys longer than this are not compared: no key is this long, and the distance stays linear per key. */
const MAX_TYPED = 24;

/**
 * Levenshtein distance of `a` and `b`, or `limit + 1` once it must exceed `limit`. One row of length |b|: linear in
 * |a| per key, and the keys are short.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      row.push(value);
      if (value < best) best = value;
    }
    // Every later row is at least this row's smallest value.
    if (best > limit) return limit + 1;
    previous = row;
  }
  // The last row's end may still pass the limit though some cell of it did not.
  const distance = previous[b.length]!;
  return distance > limit ? limit + 1 : distance;
}

/** The known key nearest to a mistyped one (one or two edits, a swap of two letters counted as two), or null. */
export function nearestKey(typed: string, keys: readonly string[]): string | null {
  const word = typed.toLowerCase();
  if (word.length === 0 || word.length > MAX_TYPED) return null;
  // Short keys (w:, h:) allow one edit, else anything would be "did you mean w:".
  const limit = word.length <= 3 ? 1 : 2;
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const key of keys) {
    const d = editDistance(word, key, Math.min(limit, bestDistance));
    if (d < bestDistance) {
      best = key;
      bestDistance = d;
    }
  }
  return best;
}
