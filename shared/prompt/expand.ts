/**
 * Prompt expansion: `{red|blue}` alternatives make every combination, each non-blank line is its own prompt.
 * `\{`, `\}` and `\|` are literal; any other backslash is left as typed (A1111's `\(` keeps working).
 */

export const MAX_PROMPTS = 100;

type Part = string | Alternatives;
/** A group's alternatives, each a sequence of text and nested groups. */
interface Alternatives {
  options: Part[][];
}

export type Expansion =
  | { ok: true; prompts: string[] }
  | {
      ok: false;
      kind: 'syntax';
      message: string;
      /** 0-based offset in the whole text, where the problem is. */ position: number;
      line: number;
      column: number;
    }
  | {
      ok: false;
      kind: 'too-many';
      message: string;
      /** How many it would make (capped at a million). */ count: number;
    };

const COUNT_CAP = 1_000_000;

interface Failure {
  message: string;
  position: number;
}

class Parser {
  private at = 0;
  constructor(
    private readonly text: string,
    private readonly offset: number,
  ) {}

  /** A sequence up to `|` or `}` inside a group (depth > 0), or the end of the line. */
  sequence(depth: number): Part[] | Failure {
    const parts: Part[] = [];
    let literal = '';
    while (this.at < this.text.length) {
      const ch = this.text[this.at]!;
      if (ch === '\\' && '{}|'.includes(this.text[this.at + 1] ?? '')) {
        literal += this.text[this.at + 1];
        this.at += 2;
        continue;
      }
      if (ch === '{') {
        const start = this.at;
        this.at += 1;
        const group = this.group(start, depth + 1);
        if ('message' in group) return group;
        if (literal !== '') parts.push(literal);
        literal = '';
        parts.push(group);
        continue;
      }
      if (depth > 0 && (ch === '|' || ch === '}')) break;
      if (ch === '}')
        return {
          message: 'This } has no { before it. Write \\} for a brace of its own.',
          position: this.offset + this.at,
        };
      literal += ch;
      this.at += 1;
    }
    if (literal !== '') parts.push(literal);
    return parts;
  }

  private group(start: number, depth: number): Alternatives | Failure {
    const options: Part[][] = [];
    for (;;) {
      const option = this.sequence(depth);
      if ('message' in option) return option;
      options.push(option);
      const ch = this.text[this.at];
      if (ch === undefined)
        return {
          message: 'This { is never closed. Add a } or write \\{ for a brace of its own.',
          position: this.offset + start,
        };
      this.at += 1;
      if (ch === '}') return { options };
    }
  }
}

/** How many prompts a sequence makes; saturates just past `cap` so a huge product never overflows. */
function countOf(parts: Part[], cap: number): number {
  let total = 1;
  for (const part of parts) {
    if (typeof part === 'string') continue;
    let sum = 0;
    for (const option of part.options) sum = Math.min(cap + 1, sum + countOf(option, cap));
    total = Math.min(cap + 1, total * sum);
  }
  return total;
}

function expandParts(parts: Part[]): string[] {
  let out = [''];
  for (const part of parts) {
    if (typeof part === 'string') {
      out = out.map((s) => s + part);
      continue;
    }
    const choices = part.options.flatMap(expandParts);
    out = out.flatMap((s) => choices.map((c) => s + c));
  }
  return out;
}

function hasGroup(parts: Part[]): boolean {
  return parts.some((p) => typeof p !== 'string');
}

function located(text: string, failure: Failure): Expansion {
  const before = text.slice(0, failure.position);
  const line = before.split('\n').length;
  const column = failure.position - before.lastIndexOf('\n');
  return {
    ok: false,
    kind: 'syntax',
    message: `Line ${line}, column ${column}: ${failure.message}`,
    position: failure.position,
    line,
    column,
  };
}

/** Every prompt the text stands for, in order, or where and why it cannot be read. */
export function expandPrompts(text: string, max: number = MAX_PROMPTS): Expansion {
  const lines: { parts: Part[]; offset: number }[] = [];
  let offset = 0;
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() !== '') {
      const parts = new Parser(line, offset).sequence(0);
      if ('message' in parts) return located(text, parts);
      lines.push({ parts, offset });
    }
    offset += raw.length + 1;
  }
  let total = 0;
  for (const line of lines) total = Math.min(COUNT_CAP, total + countOf(line.parts, COUNT_CAP));
  if (total > max) {
    const many = total >= COUNT_CAP ? 'a million or more' : total.toLocaleString('en-US');
    return {
      ok: false,
      kind: 'too-many',
      count: total,
      message: `This makes ${many} prompts; at most ${max} go at once. Remove some alternatives or lines.`,
    };
  }
  const prompts: string[] = [];
  for (const line of lines) {
    // An empty alternative leaves two spaces or a space at an end: tidied only on lines that have groups.
    const tidy = hasGroup(line.parts) ? (s: string) => s.replace(/ {2,}/g, ' ').trim() : (s: string) => s.trim();
    for (const prompt of expandParts(line.parts).map(tidy)) {
      if (prompt === '')
        return located(text, { message: 'one of the alternatives leaves this prompt empty.', position: line.offset });
      prompts.push(prompt);
    }
  }
  return { ok: true, prompts };
}
