import type { Redactor } from '../providers/redact.js';

/** What stands in for a prompt in the log, a crash report or diagnostics: a person's words stay on their machine. */
export const PROMPT_OMITTED = '[prompt omitted]';

// Any field named like a prompt (prompt, negativePrompt, revisedPrompt, prompts…), whatever its value.
const PROMPT_KEY = /prompt/i;
// The same fields inside text that carries JSON (a provider error body quoted in a message).
const PROMPT_IN_JSON =
  /("[A-Za-z_]*prompts?[A-Za-z_]*"\s*:\s*)("(?:[^"\\]|\\.)*"|\[(?:[^\]"\\]|"(?:[^"\\]|\\.)*")*\])/gi;

// And as a person or a stack would write it: "prompt: …" or "prompt=…" to the end of the line.
const PROMPT_IN_WORDS = /\b([A-Za-z_]*prompts?)(\s*[:=]\s*)(?!"\[prompt omitted\]")[^\n]*/gi;

export interface Scrubber {
  text(value: string): string;
  /** A JSON-safe copy: secrets redacted, prompt fields dropped, errors as name, message and stack. */
  value(value: unknown): unknown;
}

/** Secrets (from the current redactor, which learns new ones as the engine decrypts them) and prompts, removed. */
export function createScrubber(redactor: () => Redactor): Scrubber {
  const text = (value: string): string =>
    redactor().text(
      value
        .replace(PROMPT_IN_JSON, (_m, key: string) => `${key}"${PROMPT_OMITTED}"`)
        .replace(PROMPT_IN_WORDS, (_m, key: string, sep: string) => `${key}${sep}${PROMPT_OMITTED}`),
    );
  const walk = (value: unknown, seen: Set<object>): unknown => {
    if (typeof value === 'string') return text(value);
    if (typeof value === 'bigint') return value.toString();
    if (value === null || typeof value !== 'object')
      return typeof value === 'function' || typeof value === 'symbol' ? String(value) : value;
    if (seen.has(value)) return '[circular]';
    seen.add(value);
    try {
      if (value instanceof Error) {
        return {
          name: text(value.name),
          message: text(value.message),
          ...(value.stack === undefined ? {} : { stack: text(value.stack) }),
        };
      }
      if (Array.isArray(value)) return value.map((item) => walk(item, seen));
      if (ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        Object.defineProperty(out, text(key), {
          value: PROMPT_KEY.test(key) ? PROMPT_OMITTED : walk(item, seen),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    } finally {
      seen.delete(value);
    }
  };
  return { text, value: (value) => walk(value, new Set()) };
}
