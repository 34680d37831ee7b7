import { describe, expect, it } from 'vitest';
import { axisLabel, defaultSweepName } from '../../../../shared/sweep/labels.js';

describe('sweep axis labels', () => {
  it('name an axis as the composer, the grid and the sheet do, a LoRA weight with its LoRA', () => {
    expect(axisLabel({ field: 'guidance' })).toBe('CFG');
    expect(axisLabel({ field: 'loraWeight', lora: 'add_detail' })).toBe('LoRA weight (add_detail)');
  });

  it('make a sweep’s default name from its axes, X first', () => {
    expect(defaultSweepName([{ field: 'guidance' }, { field: 'steps' }])).toBe('CFG × Steps');
  });
});
