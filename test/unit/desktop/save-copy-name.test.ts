import { describe, expect, it } from 'vitest';
import { suggestedName } from '../../../electron/desktop/save-copy.js';

describe('suggestedName', () => {
  it('gives each image type its own extension, an imported AVIF included', () => {
    expect(suggestedName('a1', 'image/png')).toBe('atelier-a1.png');
    expect(suggestedName('a1', 'image/jpeg')).toBe('atelier-a1.jpg');
    expect(suggestedName('a1', 'image/webp')).toBe('atelier-a1.webp');
    expect(suggestedName('a1', 'image/avif')).toBe('atelier-a1.avif');
  });
});
