import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { formatCsv, parseCsv } from '../../../electron/library/csv.js';
import { MAX_STYLES, readStylesCsv, templateOfStyle } from '../../../electron/library/styles-csv.js';
import { presetKey } from '../../../electron/db/presets.js';

const FIXTURE = new URL('../../fixtures/a1111-styles.csv', import.meta.url);

// Text rich in what CSV has to get right, mixed with any Unicode.
const tricky = fc.string({
  unit: fc.constantFrom('a', 'Z', ' ', '"', ',', '\r', '\n', '\r\n', 'é', '{', '}', '\uFEFF', '#', '\t'),
});
const field = fc.oneof(tricky, fc.string({ unit: 'grapheme' }));
const records = fc.array(fc.array(field, { minLength: 1, maxLength: 5 }), { maxLength: 8 });
const lineEnd = fc.constantFrom('\r\n', '\n', '\r');
const breaks = (text: string): number => text.match(/\r\n|\r|\n/gu)?.length ?? 0;

describe('CSV as Python writes it: format → parse gives every record back', () => {
  it('fields with quotes, commas and line breaks read back exactly, with or without skipping leading spaces', () => {
    fc.assert(
      fc.property(records, lineEnd, fc.boolean(), (rows, end, skipInitialSpace) => {
        const parsed = parseCsv(formatCsv(rows, end), { skipInitialSpace });
        expect(parsed.unclosedAt).toBeUndefined();
        expect(parsed.records.map((r) => r.fields)).toEqual(rows);
      }),
      { numRuns: 500 },
    );
  });

  it('each record knows the line it starts on, counting line breaks inside quoted fields', () => {
    fc.assert(
      fc.property(records, lineEnd, (rows, end) => {
        const pieces = rows.map((row) => formatCsv([row], end));
        const expected = pieces.map((_, i) => 1 + breaks(pieces.slice(0, i).join('')));
        expect(parseCsv(pieces.join('')).records.map((r) => r.line)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('the last record needs no line break; blank lines are no records; a lone "" is one empty field', () => {
    expect(parseCsv('a,b\r\n\r\n\nc').records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 4, fields: ['c'] },
    ]);
    expect(parseCsv('""\n').records).toEqual([{ line: 1, fields: [''] }]);
    expect(formatCsv([['']])).toBe('""\r\n');
  });

  it('outside strict mode, a stray quote and text after a closing quote stay as text (as Python reads them)', () => {
    expect(parseCsv('ab"c,"de"f,"g""h"\n').records[0]!.fields).toEqual(['ab"c', 'def', 'g"h']);
  });

  it('a quoted field never closed is reported at the line it opens on; the records before it stand', () => {
    const parsed = parseCsv('a,b\nc,"never\nclosed\n');
    expect(parsed.records).toEqual([{ line: 1, fields: ['a', 'b'] }]);
    expect(parsed.unclosedAt).toBe(2);
  });
});

describe('A1111 styles.csv', () => {
  it('a style with {prompt} is the template; one without appends after the typed prompt, as A1111 does', () => {
    expect(templateOfStyle('photo of {prompt}, 35mm')).toBe('photo of {prompt}, 35mm');
    expect(templateOfStyle('watercolor')).toBe('{prompt}, watercolor');
    expect(templateOfStyle('  ')).toBeUndefined();
  });

  it('reads the fixture (BOM, CRLF, quoted commas, doubled quotes, line breaks in quotes, blank lines, missing and extra columns)', () => {
    const { styles, skipped } = readStylesCsv(readFileSync(FIXTURE, 'utf8'));
    expect(styles).toEqual([
      {
        line: 2,
        name: 'Cinematic',
        template: 'cinematic still of {prompt}, shallow depth of field, film grain',
        negativePrompt: 'blurry, lowres',
      },
      { line: 3, name: 'Watercolor', template: '{prompt}, watercolor painting, soft edges' },
      { line: 5, name: 'Quoted "Noir"', template: '{prompt}, film noir, "high contrast"', negativePrompt: 'color' },
      { line: 6, name: 'Multiline', template: 'line one\nline two {prompt}\nline three', negativePrompt: 'ugly' },
      { line: 10, name: 'Only negative', negativePrompt: 'text, watermark' },
      { line: 11, name: 'Missing negative', template: '{prompt}, oil on canvas' },
      { line: 17, name: 'Spaced', template: '{prompt}, after a space, quoted', negativePrompt: 'neg, two' },
      { line: 19, name: 'Trailing comma', template: '{prompt}, sunset' },
      { line: 20, name: 'Café', template: '{prompt} in a café' },
    ]);
    expect(skipped.map((s) => s.line)).toEqual([12, 14, 15, 16, 18]);
    expect(skipped[0]!.reason).toBe('"Name only" has neither a prompt nor a negative prompt.');
    expect(skipped[1]!.reason).toMatch(
      /has 5 fields where the first line names 3: a prompt with commas needs "quotes"/u,
    );
    expect(skipped[2]!.reason).toBe('The style has no name.');
    expect(skipped[3]!.reason).toBe('A style called "CINEMATIC" is already on line 2.');
    expect(skipped[4]!.reason).toMatch(/^Write the placeholder as \{prompt\}, exactly: "\{Prompt\}"/u);
  });

  it('columns are found by their names in any order; the old name,text header still works', () => {
    expect(readStylesCsv('negative_prompt,name,prompt\nugly,Moody,dark {prompt}\n').styles).toEqual([
      { line: 2, name: 'Moody', template: 'dark {prompt}', negativePrompt: 'ugly' },
    ]);
    expect(readStylesCsv('name,text\nOld,"pastel, soft"\n').styles).toEqual([
      { line: 2, name: 'Old', template: '{prompt}, pastel, soft' },
    ]);
  });

  it('a file without a name column is refused whole, saying what a styles file looks like', () => {
    for (const text of ['prompt,negative_prompt\na,b\n', '\n\n', 'just some text']) {
      const error = (() => {
        try {
          readStylesCsv(text);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error, text).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('invalid_request');
      expect((error as AppError).message).toMatch(/name,prompt,negative_prompt/u);
    }
  });

  it('an unclosed quote skips the rest with the line it opened on, keeping the styles before it', () => {
    const { styles, skipped } = readStylesCsv('name,prompt\nA,one\nB,"two\nC,three\n');
    expect(styles.map((s) => s.name)).toEqual(['A']);
    expect(skipped).toEqual([{ line: 3, reason: expect.stringMatching(/never closed/u) as string }]);
  });

  it(`one file adds at most ${MAX_STYLES.toLocaleString('en')} styles; where it stopped is named as a skipped line`, () => {
    const rows = Array.from({ length: MAX_STYLES + 5 }, (_, i) => [`Style ${i}`, `look ${i}`, '']);
    const { styles, skipped } = readStylesCsv(formatCsv([['name', 'prompt', 'negative_prompt'], ...rows]));
    expect(styles).toHaveLength(MAX_STYLES);
    expect(styles.at(-1)!.name).toBe(`Style ${MAX_STYLES - 1}`);
    expect(skipped).toEqual([
      {
        line: MAX_STYLES + 2,
        reason: expect.stringMatching(
          /at most 10,000 styles: this line and the ones after it were not read/u,
        ) as string,
      },
    ]);
  });

  it('styles written by the formatter read back as the same styles, whatever their text', () => {
    const text = fc.string({ unit: fc.constantFrom('a', ' ', '"', ',', '\n', 'é', 'x') });
    const style = fc.record({
      name: text.map((s) => `n${s.trim().replaceAll('\n', ' ')}`),
      prompt: text,
      negative: text,
    });
    fc.assert(
      fc.property(fc.uniqueArray(style, { selector: (s) => presetKey(s.name), maxLength: 6 }), (list) => {
        const csv =
          '\uFEFF' +
          formatCsv([['name', 'prompt', 'negative_prompt'], ...list.map((s) => [s.name, s.prompt, s.negative])]);
        const read = readStylesCsv(csv);
        const kept = list.filter((s) => s.prompt.trim() !== '' || s.negative.trim() !== '');
        expect(read.styles.map((s) => s.name)).toEqual(kept.map((s) => s.name.trim()));
        expect(read.styles.map((s) => s.negativePrompt ?? '')).toEqual(
          kept.map((s) => (s.negative.trim() === '' ? '' : s.negative)),
        );
        expect(read.styles.map((s) => s.template)).toEqual(kept.map((s) => templateOfStyle(s.prompt)));
      }),
      { numRuns: 200 },
    );
  });
});
