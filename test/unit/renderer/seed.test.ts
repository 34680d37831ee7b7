import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DRAFT, MAX_SEED, buildRequest, seedFieldText, seedFromInput } from '../../../renderer/src/lib/composer';

describe('the seed field', () => {
  it('reads empty (its placeholder says Random) while random, never "0"', () => {
    expect(DEFAULT_DRAFT.seedLocked).toBe(false);
    expect(seedFieldText(DEFAULT_DRAFT)).toBe('');
    expect(seedFieldText({ seed: 0, seedLocked: true })).toBe('0');
  });

  it('typing a whole number fixes that seed; clearing the field goes back to random; anything else is refused', () => {
    expect(seedFromInput('424242')).toEqual({ seed: 424242, seedLocked: true });
    expect(seedFromInput(' 7 ')).toEqual({ seed: 7, seedLocked: true });
    expect(seedFromInput('')).toEqual({ seedLocked: false });
    expect(seedFromInput('   ')).toEqual({ seedLocked: false });
    for (const bad of ['-1', '1.5', '1e3', 'abc', '12a', String(MAX_SEED + 1), '99999999999']) expect(seedFromInput(bad)).toBeNull();
  });

  it('any seed typed is the seed sent, and shows back as typed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_SEED }), (n) => {
        const patch = seedFromInput(String(n));
        expect(patch).toEqual({ seed: n, seedLocked: true });
        const draft = { ...DEFAULT_DRAFT, prompt: 'p', ...patch };
        expect(seedFieldText(draft)).toBe(String(n));
        expect(buildRequest(draft, { seed: true, negativePrompt: false, maxPartialImages: 0, maxCount: 1, outputFormats: ['png'], sizes: { min: 64, max: 64, multipleOf: 8, presets: [] } }).seed).toBe(n);
      }),
    );
  });

  it('text that is not a whole number in range is never taken', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const patch = seedFromInput(text);
        if (patch === null || patch.seedLocked === false) return;
        expect(Number.isInteger(patch.seed)).toBe(true);
        expect(patch.seed).toBeGreaterThanOrEqual(0);
        expect(patch.seed).toBeLessThanOrEqual(MAX_SEED);
        expect(text.trim()).toMatch(/^\d+$/);
      }),
    );
  });
});
