/**
 * Checks on a channel's raw input that no schema can make: text must be well-formed UTF-16 (a lone surrogate is
 * no character, and SQLite would store it as bad UTF-8), and no key may be "__proto__" (zod drops it silently,
 * and code that copies objects key by key would set a prototype with it).
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

export interface RawInputProblem {
  /** Dotted path, as in `details.fields` ("(body)" for the top level). */
  path: string;
  /** A value that is not well-formed text, a key that is not, or a "__proto__" key. */
  kind: 'text' | 'key' | 'proto';
}

/** The first problem in document order, or null. Iterative, so a deeply nested body cannot overflow the stack. */
export function inspectRawInput(raw: unknown): RawInputProblem | null {
  const stack: Array<{ value: unknown; path: string[] }> = [{ value: raw, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (!isWellFormed(value)) return { path: dotted(path), kind: 'text' };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const entries: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((item, i) => [String(i), item])
      : Object.entries(value);
    for (const [key] of entries) {
      if (!isWellFormed(key)) return { path: dotted(path), kind: 'key' };
      if (key === '__proto__') return { path: dotted([...path, key]), kind: 'proto' };
    }
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, item] = entries[i]!;
      stack.push({ value: item, path: [...path, key] });
    }
  }
  return null;
}

function dotted(path: string[]): string {
  return path.join('.') || '(body)';
}
