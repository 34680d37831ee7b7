import { describe, expect, it } from 'vitest';
import { passLabel, passSummary } from '../../../../renderer/src/viewer/passes';

describe('later passes in Details', () => {
  it('are named by what they were for, else by their node class', () => {
    expect(passLabel({ role: 'refiner', classType: 'KSamplerAdvanced', settings: {} })).toBe('Refiner');
    expect(passLabel({ role: 'hires', classType: 'KSampler', settings: {} })).toBe('Hires fix');
    expect(passLabel({ role: 'mystery', classType: 'MyPass', settings: {} })).toBe('MyPass');
  });

  it('sum up the settings they changed, skipping what the file left out or wrote wrong', () => {
    expect(
      passSummary({
        role: 'refiner',
        classType: 'KSamplerAdvanced',
        settings: { model: 'sd_xl_refiner_1.0.safetensors', steps: 5, denoise: 0.3, sampler: 'euler' },
      }),
    ).toBe('sd_xl_refiner_1.0.safetensors · 5 steps · denoise 0.3 · euler');
    expect(passSummary({ role: 'upscale', classType: 'Upscale', settings: { width: 2048, height: 2048 } })).toBe(
      '2048 × 2048',
    );
    expect(passSummary({ role: 'detailer', classType: 'FaceDetailer', settings: { steps: 'many', model: 7 } })).toBe(
      '',
    );
  });
});
