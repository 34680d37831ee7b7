import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  IS_VALUES,
  NUMBER_KEYS,
  RATIO_WORDS,
  TEXT_KEYS,
  formatQuery,
  parseQuery,
  type Query,
  type Term,
} from '../../../shared/query/index.js';

const parsed = (text: string): Query => {
  const result = parseQuery(text);
  if (!result.ok) throw new Error(`${text}: ${result.error.message} at ${result.error.at}`);
  return result.query;
};

// Each form, and its canonical text (where it differs from what was typed).
const FORMS: Array<[string, string?]> = [
  ['fox'],
  ['red fox'],
  ['"red fox"'],
  ['-blurry'],
  ['fox | wolf'],
  ['fox|wolf', 'fox | wolf'],
  ['-fox | wolf'],
  ['"a \\"quoted\\" word"'],
  ['négatif'],
  ['červená'],
  ['狐狸'],
  ['ÉTÉ'],
  ['model:sdxl'],
  ['model:"sd xl base"'],
  ['MODEL:sdxl', 'model:sdxl'],
  ['model:a|b', 'model:a | model:b'],
  ['sampler:euler_a'],
  ['scheduler:karras'],
  ['lora:inkwash'],
  ['lora:"ink wash"'],
  ['source:comfyui'],
  ['provider:builtin'],
  ['status:failed'],
  ['tag:keeper'],
  ['board:"final picks"'],
  ['path:/home/me/outputs'],
  ['negative:blurry'],
  ['-model:sd15'],
  ['seed:1234'],
  ['seed:0001234', 'seed:1234'],
  ['seed:1234*'],
  ['seed:100-200'],
  ['seed:18446744073709551615'],
  ['steps:20'],
  ['steps:20-30'],
  ['steps:>=20'],
  ['steps:<50'],
  ['cfg:7.5'],
  ['guidance:7', 'cfg:7'],
  ['cfg:5-7.5'],
  ['w:>=1024'],
  ['h:<768'],
  ['width:512', 'w:512'],
  ['height:>512', 'h:>512'],
  ['rating:>=4'],
  ['rating:5'],
  ['rating:0'],
  ['stars:3', 'rating:3'],
  ['size:512x768'],
  ['size:1024X1024', 'size:1024x1024'],
  ['ratio:portrait'],
  ['ratio:Landscape', 'ratio:landscape'],
  ['ratio:square'],
  ['ratio:16:9'],
  ['ratio:portrait|square', 'ratio:portrait | ratio:square'],
  ['date:today'],
  ['date:yesterday'],
  ['date:7d'],
  ['date:2026-11'],
  ['date:2026-11-30'],
  ['date:2026-01-01..2026-03-31'],
  ['date:2026-01..2026-03'],
  ['is:favorite'],
  ['is:trashed'],
  ['is:failed'],
  ['is:missing'],
  ['-is:trashed'],
  ['fox model:sdxl rating:>=4'],
  ['"glass harbour" -blurry seed:42 size:832x1216 date:7d is:favorite'],
  ['tag:keeper | tag:maybe -is:trashed'],
];

describe('the query language', () => {
  it(`reads ${FORMS.length} forms and writes each back in its canonical text, which reads the same again`, () => {
    expect(FORMS.length).toBeGreaterThanOrEqual(60);
    for (const [typed, canonical] of FORMS) {
      const query = parsed(typed);
      const text = formatQuery(query);
      expect(text, typed).toBe(canonical ?? typed);
      expect(parsed(text), typed).toEqual(query);
    }
  });

  it('keeps the structure it reads: negation, alternatives, typed values', () => {
    expect(parsed('-fox | "red wolf" seed:9007199254740993 steps:20-30')).toEqual({
      clauses: [
        {
          negated: true,
          anyOf: [
            { kind: 'word', text: 'fox' },
            { kind: 'phrase', text: 'red wolf' },
          ],
        },
        { negated: false, anyOf: [{ kind: 'seed', match: { exact: '9007199254740993' } }] },
        { negated: false, anyOf: [{ kind: 'number', key: 'steps', match: { from: 20, to: 30 } }] },
      ],
    });
    expect(parsed('')).toEqual({ clauses: [] });
  });

  it('says where and why a query cannot be read, instead of matching something else', () => {
    const cases: Array<[string, number, RegExp]> = [
      ['fox colour:red', 4, /no key "colour:"/],
      ['"open quote', 0, /never closed/],
      ['steps:lots', 6, /steps: takes a number/],
      ['steps:30-20', 6, /low to high/],
      ['rating:7', 7, /0 to 5/],
      ['seed:18446744073709551616', 5, /up to 18446744073709551615/],
      ['seed:12a', 5, /seed: takes digits/],
      ['size:512', 5, /width x height/],
      ['ratio:tall', 6, /portrait, landscape, square/],
      ['date:2026-02-30', 5, /not a date on the calendar/],
      ['date:2026-03..2026-01', 5, /earlier date/],
      ['date:soon', 5, /today, yesterday/],
      ['is:lovely', 3, /is: is one of/],
      ['fox |', 4, /between two alternatives/],
      ['| fox', 0, /between two alternatives/],
      ['fox | -wolf', 6, /before the first alternative/],
      ['model:', 0, /Give model: a value/],
      ['- fox', 0, /lone "-"/],
      ['--fox', 0, /One "-" is enough/],
      ['fo"x', 2, /start of a word/],
    ];
    for (const [text, at, message] of cases) {
      const result = parseQuery(text);
      expect(result.ok, text).toBe(false);
      if (!result.ok) {
        expect(result.error.message, text).toMatch(message);
        expect(result.error.at, text).toBe(at);
      }
    }
  });

  it('round-trips any query built from its parts (parse → canonical text → parse)', () => {
    const safeText = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim().length > 0);
    const bareWord = fc.stringMatching(/^[a-zà-ž0-9_.][a-zà-ž0-9_.:]{0,10}$/u).filter((s) => !/^[A-Za-z]+:/.test(s));
    const num = fc.integer({ min: 0, max: 4096 });
    const term: fc.Arbitrary<Term> = fc.oneof(
      bareWord.map((text): Term => ({ kind: 'word', text })),
      safeText.map((text): Term => ({ kind: 'phrase', text })),
      fc.tuple(fc.constantFrom(...TEXT_KEYS), safeText).map(([key, text]): Term => ({ kind: 'text', key, text })),
      fc
        .tuple(
          fc.constantFrom(...NUMBER_KEYS),
          fc.constantFrom('=', '>', '>=', '<', '<=' as const),
          fc.integer({ min: 0, max: 5 }),
        )
        .map(([key, op, value]): Term => ({ kind: 'number', key, match: { op, value } })),
      fc
        .tuple(fc.constantFrom(...NUMBER_KEYS), num, num)
        .map(([key, a, b]): Term => ({ kind: 'number', key, match: { from: Math.min(a, b), to: Math.max(a, b) } })),
      fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map((s): Term => ({ kind: 'seed', match: { exact: s.toString() } })),
      fc.tuple(num, num).map(([w, h]): Term => ({ kind: 'size', w, h })),
      fc.constantFrom(...RATIO_WORDS).map((shape): Term => ({ kind: 'ratio', match: { shape } })),
      fc.integer({ min: 0, max: 999 }).map((n): Term => ({ kind: 'date', match: { lastDays: n } })),
      fc.constantFrom(...IS_VALUES).map((value): Term => ({ kind: 'is', value })),
      fc.uuid().map((imageId): Term => ({ kind: 'from', imageId })),
    );
    const query = fc
      .array(fc.record({ negated: fc.boolean(), anyOf: fc.array(term, { minLength: 1, maxLength: 3 }) }), {
        maxLength: 5,
      })
      .map((clauses): Query => ({ clauses }));
    fc.assert(
      fc.property(query, (q) => {
        const text = formatQuery(q);
        expect(parsed(text)).toEqual(q);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws, whatever is typed', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const result = parseQuery(text);
        if (result.ok) expect(parsed(formatQuery(result.query))).toEqual(result.query);
        else expect(result.error.at).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 1_000 },
    );
  });
});
