import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paramEntries } from '../../../electron/media/png/a1111-params-line.js';
import { isLineTerminator, isSpace, isWordChar } from '../../../electron/media/regex-classes.js';
import { splitSquareBrackets } from '../../../electron/media/square-brackets.js';

/** Short texts from the characters each pattern cares about: where a scanner and its pattern could part ways. */
const textOf = (pieces: string[], maxLength = 40) =>
  fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));

describe('the character classes of regular expressions', () => {
  it('answer as \\s, \\w and a line end do, for every UTF-16 code unit', () => {
    for (let code = 0; code <= 0xffff; code += 1) {
      const char = String.fromCharCode(code);
      expect(isSpace(code), `U+${code.toString(16)}`).toBe(/\s/.test(char));
      expect(isWordChar(code), `U+${code.toString(16)}`).toBe(/\w/.test(char));
      expect(isLineTerminator(code), `U+${code.toString(16)}`).toBe(!/./.test(char));
    }
  });
});

describe('A1111 params line', () => {
  // The pattern A1111's parse_generation_parameters uses, which this scanner replaces.
  const PARAM_RE = /\s*(\w[\w \-/]+):\s*("(?:\\.|[^\\"])+"|[^,]*)(?:,|$)/g;
  const PIECES = [
    'a',
    'Z',
    '0',
    '_',
    ' ',
    '-',
    '/',
    ':',
    ',',
    '"',
    '\\',
    '\t',
    '\r',
    '\u2028',
    '\u00a0',
    'é',
    'Steps: ',
    ', ',
    '"a, b"',
    '\\"',
    'Size: 5x6',
  ];

  it('finds exactly the entries the pattern finds, on any text of the characters it cares about', () => {
    fc.assert(
      fc.property(textOf(PIECES), (line) => {
        expect(paramEntries(line)).toEqual([...line.matchAll(PARAM_RE)].map((m) => [m[1], m[2]]));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('square brackets', () => {
  it('split as the patterns \\[([^\\]]*)\\] and its replace did', () => {
    fc.assert(
      fc.property(textOf(['[', ']', 'a', ' ', '[a]', '[]']), (text) => {
        const { inside, outside } = splitSquareBrackets(text);
        expect(inside).toEqual([...text.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]));
        expect(outside.join('|')).toBe(text.replace(/\[[^\]]*\]/g, '|'));
      }),
      { numRuns: 5_000 },
    );
  });
});
