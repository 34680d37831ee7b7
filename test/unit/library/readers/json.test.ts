import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../../electron/library/readers/json.js';

describe('parseJson', () => {
  it('reads any JSON as JSON.parse does (the fast path and the lossless path agree)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const read = parseJson(text);
        expect(read.ok).toBe(true);
        // Numbers of 16+ digits go the lossless way: past 2^53 they are bigints, so compare those by their digits.
        const plain = JSON.stringify(read.ok ? read.value : null, (_, v: unknown) =>
          typeof v === 'bigint' ? Number(v) : v,
        );
        expect(plain).toBe(JSON.stringify(JSON.parse(text)));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every digit of a 64-bit integer, also inside an object with strings full of digits and NaN', () => {
    const read = parseJson(
      '{"note":"12345678901234567890 in a string","seed":18446744073709551615,"cfg":NaN,"steps":20}',
    );
    expect(read).toEqual({
      ok: true,
      value: { note: '12345678901234567890 in a string', seed: 18446744073709551615n, cfg: 'NaN', steps: 20 },
    });
    expect(parseJson('{"seed":42,"x":Infinity}')).toEqual({ ok: true, value: { seed: 42, x: 'Infinity' } });
  });
});
