import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildScene, seed32, words } from '../../../electron/providers/builtin/scene.js';

const kinds = (prompt: string, negativePrompt?: string) =>
  buildScene({ prompt, seed: 1, ...(negativePrompt === undefined ? {} : { negativePrompt }) }).layers.map(
    (l) => l.kind,
  );

describe('builtin scene from the prompt', () => {
  it('maps shape words to layers, back to front', () => {
    expect(kinds('a sun over the mountains by the sea')).toEqual(['disc', 'ridges', 'waves']);
    expect(kinds('neon city skyline')).toEqual(['skyline']);
  });

  it('a negative prompt removes shapes', () => {
    expect(kinds('a sun over the mountains', 'mountains')).toEqual(['disc']);
    expect(kinds('portrait', 'hills, sun, waves, city, rings, stripes, bokeh')).toEqual([]);
  });

  it('always gives a few layers for prompts with no shape words, derived from the words', () => {
    expect(kinds('portrait of a cat').length).toBe(2);
    expect(kinds('portrait of a cat')).toEqual(kinds('Portrait, of a CAT!'));
  });

  it('is a pure function of its input, and every seed up to 2^53 gives a valid 32-bit noise seed', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 60 }),
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        (prompt, seed) => {
          const a = buildScene({ prompt, seed });
          expect(buildScene({ prompt, seed })).toEqual(a);
          expect(a.seed).toBe(seed32(seed));
          expect(Number.isInteger(a.seed) && a.seed >= 0 && a.seed < 2 ** 32).toBe(true);
          for (const c of [a.skyTop, a.skyBottom, a.cloud]) for (const v of c) expect(v >= 0 && v <= 1).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
    expect(seed32(2 ** 32 + 5)).not.toBe(seed32(5));
  });

  it('ignores words that name Object.prototype members', () => {
    const scene = buildScene({
      prompt: 'constructor toString __proto__ valueOf hasOwnProperty',
      negativePrompt: 'constructor',
      seed: 2,
    });
    expect(scene.layers.length).toBe(2);
    for (const v of [...scene.skyTop, ...scene.skyBottom]) expect(Number.isFinite(v)).toBe(true);
  });

  it('splits words on punctuation and case', () => {
    expect(words('Red-orange, SUNSET… 夕焼け')).toEqual(['red', 'orange', 'sunset', '夕焼け']);
  });
});
