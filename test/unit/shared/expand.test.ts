import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandPrompts, MAX_PROMPTS } from '../../../shared/prompt/expand.js';

function prompts(text: string, max?: number): string[] {
  const result = expandPrompts(text, max);
  if (!result.ok) throw new Error(result.message);
  return result.prompts;
}

describe('prompt expansion: alternatives and lines', () => {
  it.each([
    ['a {red|blue|green} car', ['a red car', 'a blue car', 'a green car']],
    ['{a|b} {1|2}', ['a 1', 'a 2', 'b 1', 'b 2']],
    ['a fox\na hare', ['a fox', 'a hare']],
    ['a fox\r\n\n   \na {tall|short} hare', ['a fox', 'a tall hare', 'a short hare']],
    ['a {red |}car', ['a red car', 'a car']],
    ['a {big|} {red|} car', ['a big red car', 'a big car', 'a red car', 'a car']],
    ['braces \\{kept\\} and a pipe \\| too', ['braces {kept} and a pipe | too']],
    ['a {\\{x\\}|y} z', ['a {x} z', 'a y z']],
    ['A1111 \\(weights:1.2\\) and [from|to] stay', ['A1111 \\(weights:1.2\\) and [from|to] stay']],
    ['a | outside a group is text', ['a | outside a group is text']],
    ['{cat|{red|blue} dog}', ['cat', 'red dog', 'blue dog']],
    ['just one {option}', ['just one option']],
  ])('%j → %j', (text, expected) => {
    expect(prompts(text)).toEqual(expected);
  });

  it.each([
    ['a {red|blue car', 1, 3, 'never closed'],
    ['a red} car', 1, 6, 'has no {'],
    ['fine\nstill {fine}\nnot {fine', 3, 5, 'never closed'],
    ['{a|{b}', 1, 1, 'never closed'],
    ['ok\n}', 2, 1, 'has no {'],
  ])('%j is refused at line %i, column %i', (text, line, column, words) => {
    const result = expandPrompts(text);
    expect(result).toMatchObject({ ok: false, kind: 'syntax', line, column });
    if (result.ok || result.kind !== 'syntax') throw new Error('unreachable');
    expect(result.message).toContain(`Line ${line}, column ${column}`);
    expect(result.message).toContain(words);
    // The position points at the brace itself.
    expect('{}').toContain(text[result.position]);
  });

  it('an alternative that leaves a prompt empty is refused, naming the line', () => {
    const result = expandPrompts('a fox\n{ |}');
    expect(result).toMatchObject({ ok: false, kind: 'syntax', line: 2, column: 1 });
  });

  it('past the cap: a clear message with the count, and no prompts', () => {
    const text = '{a|b|c|d|e} {a|b|c|d|e} {a|b|c|d|e}';
    expect(expandPrompts(text)).toEqual({
      ok: false,
      kind: 'too-many',
      count: 125,
      message: `This makes 125 prompts; at most ${MAX_PROMPTS} go at once. Remove some alternatives or lines.`,
    });
    expect(prompts(text, 125)).toHaveLength(125);
    // Twenty groups of ten would be 10^20: counted without expanding, and said plainly.
    const huge = expandPrompts(Array.from({ length: 20 }, () => '{0|1|2|3|4|5|6|7|8|9}').join(''));
    expect(huge).toMatchObject({ ok: false, kind: 'too-many', message: expect.stringContaining('a million or more') });
  });

  it('an empty text makes no prompts', () => {
    expect(prompts('  \n \n')).toEqual([]);
  });
});

// Words without braces, pipes or backslashes, optionally holding escaped braces.
const word = fc.stringMatching(/^[a-z]{1,6}$/);
const literal = fc
  .array(fc.oneof(word, fc.constantFrom('\\{', '\\}', ' ')), { minLength: 1, maxLength: 4 })
  .map((p) => p.join(''));
const group = fc.array(word, { minLength: 1, maxLength: 4 }).map((options) => ({ options }));
const line = fc.array(fc.oneof(literal, group), { minLength: 1, maxLength: 4 });

function render(parts: (string | { options: string[] })[]): string {
  return parts.map((p) => (typeof p === 'string' ? p : `{${p.options.join('|')}}`)).join('');
}
function product(parts: (string | { options: string[] })[]): number {
  return parts.reduce((n, p) => (typeof p === 'string' ? n : n * p.options.length), 1);
}
function escapedBraces(parts: (string | { options: string[] })[]): number {
  return parts.reduce((n, p) => (typeof p === 'string' ? n + (p.match(/\\[{}]/g)?.length ?? 0) : n), 0);
}

describe('prompt expansion: properties', () => {
  it('a line makes as many prompts as the product of its group sizes, each free of unescaped braces', () => {
    fc.assert(
      fc.property(line, (parts) => {
        const text = render(parts);
        fc.pre(text.trim() !== '');
        const out = prompts(text, 10_000);
        expect(out).toHaveLength(product(parts));
        for (const prompt of out) {
          // Only the escaped braces survive, as plain braces; no group syntax is left.
          expect(prompt.match(/[{}]/g)?.length ?? 0).toBe(escapedBraces(parts));
          expect(prompt).not.toContain('\\{');
        }
      }),
    );
  });

  it('every combination appears exactly once, in order, when the alternatives differ', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }), (sizes) => {
        const text = sizes.map((n, g) => `{${Array.from({ length: n }, (_, i) => `g${g}o${i}`).join('|')}}`).join(' ');
        const out = prompts(text, 1_000);
        expect(new Set(out).size).toBe(out.length);
        const combos = sizes.reduce<string[]>(
          (acc, n, g) =>
            acc.flatMap((a) => Array.from({ length: n }, (_, i) => `${a}${a === '' ? '' : ' '}g${g}o${i}`)),
          [''],
        );
        expect(out).toEqual(combos);
      }),
    );
  });

  it('lines add up: the batch is each line’s prompts in turn', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 4 }), (lines) => {
        const texts = lines.map(render).filter((t) => t.trim() !== '');
        const all = prompts(texts.join('\n'), 10_000);
        expect(all).toEqual(texts.flatMap((t) => prompts(t, 10_000)));
      }),
    );
  });

  it('any text at all: prompts, or a message whose position is inside the text; never a throw', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('{', '}', '|', '\\', 'a', ' ', '\n'), maxLength: 30 }), (text) => {
        const result = expandPrompts(text);
        if (result.ok) {
          expect(result.prompts.length).toBeLessThanOrEqual(MAX_PROMPTS);
          for (const prompt of result.prompts) expect(prompt.trim()).not.toBe('');
        } else if (result.kind === 'syntax') {
          expect(result.position).toBeGreaterThanOrEqual(0);
          expect(result.position).toBeLessThan(text.length);
        } else expect(result.count).toBeGreaterThan(MAX_PROMPTS);
      }),
    );
  });
});
