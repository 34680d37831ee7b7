import { describe, expect, it } from 'vitest';
import { DEFAULT_DRAFT } from '../../../../renderer/src/composer/composer';
import { advancedSummary, hasAdvancedError } from '../../../../renderer/src/composer/composer-advanced';

const caps = { steps: { min: 1, max: 150, default: 20 }, guidance: { min: 0, max: 30, default: 7 } };

describe('the closed Advanced summary', () => {
  it('names only what differs from the provider’s defaults', () => {
    expect(advancedSummary({ ...DEFAULT_DRAFT, steps: 20, guidance: 7 }, caps)).toBe('');
    expect(
      advancedSummary(
        { ...DEFAULT_DRAFT, steps: 30, guidance: 7, seedLocked: true, seed: 42, negativePrompt: 'blur' },
        caps,
      ),
    ).toBe('negative prompt · seed 42 · 30 steps');
    expect(advancedSummary({ ...DEFAULT_DRAFT, seedLocked: false, seed: 42 }, caps)).toBe('');
  });

  it('opens for an error in any of its fields, not for the prompt’s', () => {
    expect(hasAdvancedError({ steps: 'Too many' })).toBe(true);
    expect(hasAdvancedError({ negativePrompt: 'Too long' })).toBe(true);
    expect(hasAdvancedError({ prompt: 'Write a prompt' })).toBe(false);
    // The size sits above Advanced, beside its ratio chips: its error shows there without opening anything.
    expect(hasAdvancedError({ width: 'Too wide' })).toBe(false);
  });
});
