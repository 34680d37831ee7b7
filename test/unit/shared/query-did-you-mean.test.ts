import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editDistance, nearestKey } from '../../../shared/query/did-you-mean.js';
import { parseQuery } from '../../../shared/query/index.js';

const errorOf = (text: string) => {
  const result = parseQuery(text);
  if (result.ok) throw new Error(`${text} parsed`);
  return result.error;
};

describe('did you mean, for a key the language does not know', () => {
  it('names the nearest key for a typo, a swap or a missing letter', () => {
    expect(errorOf('fox modle:sdxl')).toEqual({ at: 4, message: expect.stringContaining('Did you mean model:?') });
    expect(errorOf('stpes:20').message).toContain('Did you mean steps:?');
    expect(errorOf('samplr:euler').message).toContain('Did you mean sampler:?');
    expect(errorOf('negatve:blurry').message).toContain('Did you mean negative:?');
    expect(errorOf('widht:512').message).toContain('Did you mean width:?');
  });

  it('lists the keys instead of guessing when nothing is near', () => {
    const message = errorOf('colour:red').message;
    expect(message).not.toContain('Did you mean');
    expect(message).toContain('Keys: model, sampler');
    // Two letters off a one-letter key is not a near miss.
    expect(nearestKey('ab', ['w', 'h'])).toBeNull();
  });

  it('measures edits as Levenshtein does, stopping past the limit', () => {
    expect(editDistance('modle', 'model', 5)).toBe(2);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
    expect(editDistance('', 'abc', 5)).toBe(3);
  });

  it('agrees with the textbook distance wherever it is within the limit', () => {
    const full = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) =>
        Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
      );
      for (let i = 1; i <= a.length; i += 1)
        for (let j = 1; j <= b.length; j += 1)
          d[i]![j] = Math.min(
            d[i - 1]![j]! + 1,
            d[i]![j - 1]! + 1,
            d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
          );
      return d[a.length]![b.length]!;
    };
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 8 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, limit) => {
        const exact = full(a, b);
        expect(editDistance(a, b, limit)).toBe(exact <= limit ? exact : limit + 1);
      }),
    );
  });

  // No time is asserted: a parser quadratic in the text would stall these past the test's timeout.
  it('reads long adversarial queries in linear time, answering a result every time', () => {
    const fragment = fc.constantFrom(
      'modle:',
      'x',
      ' ',
      '"',
      '\\',
      '|',
      '-',
      'model:',
      'a|b',
      ':',
      'seed:1',
      '1-',
      'é',
    );
    fc.assert(
      fc.property(
        fc.array(fragment, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 20_000, max: 60_000 }),
        (parts, times) => {
          const text = parts.join('').repeat(Math.ceil(times / parts.join('').length));
          const result = parseQuery(text);
          expect(typeof result.ok).toBe('boolean');
        },
      ),
      { numRuns: 30 },
    );
    // A key is at most a few dozen letters: a longer run reads as a word, never compared with every key.
    expect(parseQuery(`${'m'.repeat(100_000)}:x`).ok).toBe(true);
    expect(nearestKey('q'.repeat(1_000_000), ['model'])).toBeNull();
  });
});
