import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SWEEP_CELL_CAP } from '../../../../shared/sweep/limits.js';
import { readAxisValues, splitItems, type AxisValues } from '../../../../shared/sweep/values.js';

const values = (field: Parameters<typeof readAxisValues>[0], text: string, prompt?: string): AxisValues => {
  const read = readAxisValues(field, text, prompt);
  if (!read.ok) throw new Error(read.message);
  return read.values;
};
const message = (field: Parameters<typeof readAxisValues>[0], text: string, prompt?: string): string => {
  const read = readAxisValues(field, text, prompt);
  if (read.ok) throw new Error(`read ${JSON.stringify(read.labels)}`);
  return read.message;
};

describe('an axis’s values as typed', () => {
  it('reads lists, with double quotes keeping a comma', () => {
    expect(values('sampler', 'Euler a, DPM++ 2M Karras ,  LMS')).toEqual({
      kind: 'name',
      values: ['Euler a', 'DPM++ 2M Karras', 'LMS'],
    });
    expect(values('prompt', '"red, bright", "blue", ""', 'a red, bright fox')).toEqual({
      kind: 'prompt',
      search: 'red, bright',
      values: ['red, bright', 'blue', ''],
    });
    expect(values('guidance', '5, 7.5,10')).toEqual({ kind: 'number', values: [5, 7.5, 10] });
  });

  it('reads ranges: step, A1111’s [count] and (+step), descending, negative ends', () => {
    expect(values('steps', '1-20 step 5')).toEqual({ kind: 'number', values: [1, 6, 11, 16] });
    expect(values('guidance', '0.5-1.5 step 0.25')).toEqual({ kind: 'number', values: [0.5, 0.75, 1, 1.25, 1.5] });
    expect(values('steps', '4-12 [5]')).toEqual({ kind: 'number', values: [4, 6, 8, 10, 12] });
    expect(values('steps', '1-9 (+2)')).toEqual({ kind: 'number', values: [1, 3, 5, 7, 9] });
    expect(values('steps', '9-1 (-4)')).toEqual({ kind: 'number', values: [9, 5, 1] });
    expect(values('steps', '20-5 step 5')).toEqual({ kind: 'number', values: [20, 15, 10, 5] });
    expect(values('steps', '1-3, 10')).toEqual({ kind: 'number', values: [1, 2, 3, 10] });
    expect(values('loraWeight', '-1--0.5 step 0.25')).toEqual({ kind: 'number', values: [-1, -0.75, -0.5] });
    expect(values('loraWeight', '-0.5-0.5 [3]')).toEqual({ kind: 'number', values: [-0.5, 0, 0.5] });
    expect(values('guidance', '0.1-0.3 step 0.1')).toEqual({ kind: 'number', values: [0.1, 0.2, 0.3] });
  });

  it('reads seeds past 2^53 exactly, and sizes', () => {
    expect(values('seed', '100-110 step 5, 7')).toEqual({ kind: 'seed', values: [100, 105, 110, 7] });
    expect(values('seed', '18446744073709551613-18446744073709551615')).toEqual({
      kind: 'seed',
      values: ['18446744073709551613', '18446744073709551614', '18446744073709551615'],
    });
    expect(values('size', '512x768, 1024 x 1024')).toEqual({
      kind: 'size',
      values: [
        { width: 512, height: 768 },
        { width: 1024, height: 1024 },
      ],
    });
  });

  it('says what is wrong, per field', () => {
    expect(message('steps', '0, 5')).toBe('Steps goes from 1 to 150: 0 is outside.');
    expect(message('steps', '1.5')).toBe('Steps is a whole number: 1.5 is not.');
    expect(message('guidance', '5, 40')).toBe('Guidance goes from 0 to 30: 40 is outside.');
    expect(message('strength', '0.5, 2')).toBe('Strength goes from 0 to 1: 2 is outside.');
    expect(message('loraWeight', '5')).toBe('LoRA weight goes from -4 to 4: 5 is outside.');
    expect(message('guidance', 'high')).toBe(
      '"high" is not a number, a list (5, 7.5, 10) or a range (1-20 step 5, 4-12 [5]).',
    );
    expect(message('guidance', '-1')).toMatch(/^"-1" is not a number/);
    expect(message('steps', '1-100000')).toBe('The range 1-100000 gives 100,000 values; an axis has at most 500.');
    expect(message('seed', '0-18446744073709551615')).toMatch(/^The range 0-18446744073709551615 gives/);
    expect(message('seed', '-1')).toMatch(/is not a seed/);
    expect(message('seed', '18446744073709551616')).toBe(
      'A seed is a whole number from 0 to 18446744073709551615: 18446744073709551616 is not.',
    );
    expect(message('steps', '5-10 step 0')).toBe('In 5-10 the step is more than 0.');
    expect(message('size', '512x32')).toBe("A size's sides are whole numbers from 64 to 4096: 512x32 is not.");
    expect(message('size', '512')).toBe('"512" is not a size: write width x height, e.g. 512x768.');
    expect(message('sampler', 'a,,b')).toBe('A value is empty between two commas (an empty text is written "").');
    expect(message('sampler', 'a, b,')).toBe('A value is missing after the last comma.');
    expect(message('sampler', '"a, b')).toBe('A quoted value has no closing quote (").');
    expect(message('sampler', '"a" b')).toBe('After the quoted value "a" comes a comma, or the end.');
    expect(message('provider', 'Open AI')).toMatch(/^"Open AI" is not a provider/);
    expect(message('prompt', 'cat, dog', 'a red fox')).toBe(
      'The first value, "cat", is the text replaced in each cell: the prompt does not contain it.',
    );
  });

  it('a range never expands past the cap, and every value lies between its ends', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 150 }),
        fc.integer({ min: 1, max: 150 }),
        fc.integer({ min: 1, max: 40 }),
        (a, b, step) => {
          const read = readAxisValues('steps', `${a}-${b} step ${step}`);
          expect(read.ok).toBe(true);
          if (!read.ok || read.values.kind !== 'number') return;
          const got = read.values.values;
          expect(got.length).toBe(Math.floor(Math.abs(b - a) / step) + 1);
          expect(got[0]).toBe(a);
          for (const v of got) {
            expect(v).toBeGreaterThanOrEqual(Math.min(a, b));
            expect(v).toBeLessThanOrEqual(Math.max(a, b));
          }
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 1n << 64n }),
        fc.bigInt({ min: 0n, max: 1n << 64n }),
        fc.bigInt({ min: 1n, max: 1n << 40n }),
        (a, b, step) => {
          const read = readAxisValues('seed', `${a}-${b} step ${step}`);
          if (read.ok) expect(read.labels.length).toBeLessThanOrEqual(SWEEP_CELL_CAP);
          else expect(read.message).toMatch(/at most 500|0 to 18446744073709551615/);
        },
      ),
    );
  });

  it('labels read back as the same values (what the grid records re-runs its cells from)', () => {
    const name = fc
      .string({ minLength: 1, maxLength: 30 })
      .filter(
        (s) =>
          s.trim() === s && !s.includes('"') && ![...s].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127),
      );
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 20 }), (names) => {
        const read = readAxisValues('model', names.map((n) => `"${n}"`).join(', '));
        expect(read).toMatchObject({ ok: true, labels: names });
      }),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.integer({ min: 0, max: 3000 }).map((n) => n / 100),
          { minLength: 1, maxLength: 50 },
        ),
        (nums) => {
          const first = readAxisValues('guidance', nums.join(', '));
          expect(first).toMatchObject({ ok: true, values: { values: nums } });
          if (first.ok) expect(readAxisValues('guidance', first.labels.join(', '))).toEqual(first);
        },
      ),
    );
  });

  it('any text, however long or hostile, is answered (one pass, no pattern to backtrack)', () => {
    const hostile = [
      '1'.repeat(4_000),
      '-'.repeat(4_000),
      '1-'.repeat(2_000),
      '"'.repeat(3_999),
      ','.repeat(4_000),
      `${'9'.repeat(400)}-${'9'.repeat(400)}`,
      `1-2 step ${'0'.repeat(3_000)}1`,
      ' '.repeat(3_999) + 'x',
      'a, '.repeat(1_333),
    ];
    for (const text of hostile)
      for (const field of ['steps', 'seed', 'loraWeight', 'size', 'sampler', 'prompt'] as const) {
        const read = readAxisValues(field, text, 'a');
        if (read.ok) expect(read.labels.length).toBeLessThanOrEqual(SWEEP_CELL_CAP);
        else expect(read.message.length).toBeGreaterThan(0);
      }
    fc.assert(
      fc.property(
        fc.string({ maxLength: 4_000 }),
        fc.constantFrom('steps', 'guidance', 'seed', 'size', 'lora', 'prompt' as const),
        (text, field) => {
          const read = readAxisValues(field, text, text);
          if (read.ok) expect(read.labels.length).toBeLessThanOrEqual(SWEEP_CELL_CAP);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a list past the cap is refused as soon as it passes it', () => {
    expect(splitItems('a,'.repeat(SWEEP_CELL_CAP) + 'a')).toEqual({
      ok: false,
      message: 'An axis has at most 500 values.',
    });
    expect(message('steps', '1-150, 1-150, 1-150, 1-150')).toBe(
      'The range 1-150 gives 150 values; an axis has at most 500.',
    );
  });
});
