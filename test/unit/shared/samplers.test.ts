import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { samplerKey, samplerLabel } from '../../../shared/query/samplers.js';
import { foldForSearch } from '../../../shared/search-fold.js';

const label = (stored: string) => samplerLabel(stored, foldForSearch(stored));

describe('one name per sampler', () => {
  it('gives every tool’s spelling of a sampler one label', () => {
    for (const spelling of ['Euler a', 'euler_ancestral', 'k_euler_ancestral', 'Euler Ancestral', 'euler_a'])
      expect(label(spelling), spelling).toBe('Euler a');
    for (const spelling of ['uni_pc', 'UniPC', 'unipc']) expect(label(spelling), spelling).toBe('UniPC');
    for (const spelling of ['DPM++ 2M', 'dpmpp_2m', 'k_dpmpp_2m']) expect(label(spelling), spelling).toBe('DPM++ 2M');
    expect(label('DPM++ 2M Karras')).toBe('DPM++ 2M Karras');
    expect(label('dpmpp_2m_karras')).toBe('DPM++ 2M Karras');
    expect(label('DPM2 a')).toBe('DPM2 a');
    expect(label('euler')).toBe('Euler');
    // A sampler it does not know keeps the tool's own text.
    expect(label('MyCustomSampler')).toBe('MyCustomSampler');
  });

  it('keeps Euler and Euler a apart, and the key of a key is itself', () => {
    expect(samplerKey('euler')).not.toBe(samplerKey('euler a'));
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (s) => {
        const key = samplerKey(foldForSearch(s));
        expect(samplerKey(key)).toBe(key);
      }),
    );
  });
});
