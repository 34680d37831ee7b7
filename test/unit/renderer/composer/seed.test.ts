import { textOnlyOperations } from '../../../../shared/contract.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DRAFT, buildRequest, seedFieldText, seedFromInput } from '../../../../renderer/src/composer/composer';
import { GenerateRequest } from '../../../../shared/contract';
import { MAX_SEED } from '../../../../shared/seed';

const CAPS = {
  seed: true,
  negativePrompt: false,
  maxPartialImages: 0,
  maxCount: 1,
  outputFormats: ['png' as const],
  operations: textOnlyOperations('text only'),
  sizes: { min: 64, max: 64, multipleOf: 8, presets: [] },
};

describe('the seed field', () => {
  it('reads empty (its placeholder says Random) while random, never "0"', () => {
    expect(DEFAULT_DRAFT.seedLocked).toBe(false);
    expect(seedFieldText(DEFAULT_DRAFT)).toBe('');
    expect(seedFieldText({ seed: 0, seedLocked: true })).toBe('0');
  });

  it('typing a whole number fixes that seed; clearing the field goes back to random; anything else is refused', () => {
    expect(seedFromInput('424242')).toEqual({ seed: 424242, seedLocked: true, seedOnce: false });
    expect(seedFromInput(' 7 ')).toEqual({ seed: 7, seedLocked: true, seedOnce: false });
    expect(seedFromInput('')).toEqual({ seedLocked: false, seedOnce: false });
    expect(seedFromInput('   ')).toEqual({ seedLocked: false, seedOnce: false });
    expect(seedFromInput('007')).toEqual({ seed: 7, seedLocked: true, seedOnce: false });
    for (const bad of ['-1', '1.5', '1e3', 'abc', '12a', '1 2', String(MAX_SEED + 1n), '99999999999999999999'])
      expect(seedFromInput(bad)).toBeNull();
  });

  it('a 20-digit seed is kept, shown and sent with every digit (never through Number())', () => {
    const patch = seedFromInput('18446744073709551615');
    expect(patch).toEqual({ seed: '18446744073709551615', seedLocked: true, seedOnce: false });
    const draft = { ...DEFAULT_DRAFT, prompt: 'p', ...patch };
    expect(seedFieldText(draft)).toBe('18446744073709551615');
    const request = buildRequest(draft, CAPS);
    expect(request.seed).toBe('18446744073709551615');
    expect(GenerateRequest.parse(request).seed).toBe('18446744073709551615');
  });

  it('any seed typed is the seed sent, and shows back as typed', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_SEED }), (n) => {
        const patch = seedFromInput(String(n));
        expect(patch?.seedLocked).toBe(true);
        const draft = { ...DEFAULT_DRAFT, prompt: 'p', ...patch };
        expect(seedFieldText(draft)).toBe(String(n));
        const sent = GenerateRequest.parse(buildRequest(draft, CAPS)).seed;
        expect(BigInt(sent ?? -1)).toBe(n);
      }),
    );
  });

  it('text that is not a whole number in range is never taken', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const patch = seedFromInput(text);
        if (patch === null || patch.seedLocked === false) return;
        expect(text.trim()).toMatch(/^\d+$/);
        expect(BigInt(patch.seed ?? -1)).toBe(BigInt(text.trim()));
        expect(BigInt(text.trim())).toBeLessThanOrEqual(MAX_SEED);
      }),
    );
  });
});
