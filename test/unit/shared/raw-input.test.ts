import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHANNEL_NAMES, channels } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { parseChannelInput } from '../../../shared/validate.js';
import { isWellFormed } from '../../../shared/raw-input.js';

/** An independent oracle: UTF-8 round-trips exactly the well-formed strings. */
const roundTrips = (s: string): boolean => new TextDecoder().decode(new TextEncoder().encode(s)) === s;

/** Any UTF-16 string, surrogates (paired or not) well represented. */
const utf16 = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 0xffff }),
      fc.integer({ min: 0xd800, max: 0xdfff }),
      fc.integer({ min: 0x20, max: 0x7e }),
    ),
    { maxLength: 24 },
  )
  .map((units) => String.fromCharCode(...units));

const refusal = (fn: () => unknown): AppError | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error as AppError;
  }
};

describe('well-formed text', () => {
  it('agrees with a UTF-8 round trip on every UTF-16 string', () => {
    fc.assert(
      fc.property(utf16, (s) => {
        expect(isWellFormed(s)).toBe(roundTrips(s));
      }),
      { numRuns: 2_000 },
    );
    expect(isWellFormed('emoji 🎨 ok')).toBe(true);
    expect(isWellFormed('half \ud83c')).toBe(false);
    expect(isWellFormed('\udfa8 other half')).toBe(false);
  });

  it('jobs.submit refuses a prompt, negative prompt or model with a lone surrogate, naming the field, and keeps every other prompt as typed', () => {
    fc.assert(
      fc.property(utf16, fc.constantFrom('prompt', 'negativePrompt', 'model'), (text, field) => {
        const input = { provider: 'builtin', prompt: 'a fox', width: 64, height: 64, count: 1, [field]: `x${text}` };
        const error = refusal(() => parseChannelInput('jobs.submit', input));
        if (roundTrips(text)) {
          expect(error).toBeUndefined();
          expect(parseChannelInput('jobs.submit', input)[field as 'prompt']).toBe(`x${text}`);
        } else {
          expect(error).toBeInstanceOf(AppError);
          expect(error!.code).toBe('invalid_request');
          expect(error!.message).toContain(`“${field}”`);
          expect(error!.details).toEqual({ fields: { [field]: 'Not valid text: it contains a lone surrogate.' } });
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('every channel refuses a lone surrogate at any depth, in values and in keys, before its schema', () => {
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        utf16,
        fc.integer(),
        fc.boolean(),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(utf16, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(fc.constantFrom(...CHANNEL_NAMES), fc.dictionary(utf16, tree, { maxKeys: 4 }), (channel, raw) => {
        const broken = !collect(raw).every(roundTrips);
        const error = refusal(() => parseChannelInput(channel, raw));
        if (broken) {
          expect(error?.code).toBe('invalid_request');
          expect(error?.message).toMatch(/lone surrogate/);
        } else if (error !== undefined) {
          // Without broken text the schema alone decides, exactly as before.
          expect(channels[channel].input.safeParse(raw).success).toBe(false);
          expect(error.message).not.toMatch(/lone surrogate/);
        }
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('"__proto__" keys', () => {
  it('are refused on every channel at any depth, where zod alone would drop them silently', () => {
    const raw = JSON.parse('{"providers":{"__proto__":{"enabled":true}}}') as unknown;
    expect(channels['settings.update'].input.safeParse(raw).success).toBe(true);
    for (const channel of CHANNEL_NAMES) {
      const error = refusal(() => parseChannelInput(channel, raw));
      expect(error?.code, channel).toBe('invalid_request');
      expect(error?.details, channel).toEqual({ fields: { 'providers.__proto__': 'Not an accepted field.' } });
    }
    const top = refusal(() => parseChannelInput('jobs.list', JSON.parse('{"__proto__":{"limit":1}}')));
    expect(Object.getOwnPropertyDescriptor(top?.details?.['fields'], '__proto__')?.value).toBe(
      'Not an accepted field.',
    );
  });
});

/** Every string of a value, keys included, as one list (for the oracle). */
function collect(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) collect(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      collect(v, out);
    }
  }
  return out;
}
