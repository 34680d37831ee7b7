import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CARD_GAP, THUMB_SIZES, clampThumbSize, gridLayout } from '../../../../renderer/src/gallery/grid-layout';
import { keyToCommand, type KeyInput } from '../../../../renderer/src/common/keyboard';

const key = (k: string, extra: Partial<KeyInput> = {}): KeyInput => ({
  key: k,
  ctrlKey: true,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  inTextField: false,
  ...extra,
});

describe('thumbnail size', () => {
  it('every card is at least the chosen size and a row never overflows its width', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 200, max: 4000 }),
        fc.integer({ min: THUMB_SIZES.min, max: THUMB_SIZES.max }),
        (width, size) => {
          const layout = gridLayout(width, 100, size);
          expect(layout.cardWidth).toBeGreaterThanOrEqual(Math.min(size, width));
          expect(layout.columns * layout.cardWidth + (layout.columns - 1) * CARD_GAP).toBeLessThanOrEqual(
            Math.max(width, size),
          );
          // One more column would not fit at that size.
          expect((layout.columns + 1) * size + layout.columns * CARD_GAP).toBeGreaterThan(width);
        },
      ),
    );
  });

  it('is kept in range and on its steps, whatever is stored', () => {
    expect(clampThumbSize(10)).toBe(THUMB_SIZES.min);
    expect(clampThumbSize(10_000)).toBe(THUMB_SIZES.max);
    expect(clampThumbSize(Number.NaN)).toBe(180);
    expect(clampThumbSize(251)).toBe(260);
  });

  it('Ctrl/Cmd + and − step it outside the viewer and text fields', () => {
    expect(keyToCommand(key('='), 'grid')).toBe('thumbsBigger');
    expect(keyToCommand(key('+', { shiftKey: true }), 'other')).toBe('thumbsBigger');
    expect(keyToCommand(key('-', { ctrlKey: false, metaKey: true }), 'grid')).toBe('thumbsSmaller');
    expect(keyToCommand(key('-'), 'viewer')).toBeNull();
    expect(keyToCommand(key('-', { inTextField: true }), 'other')).toBeNull();
  });
});

describe('the compose key', () => {
  it('N opens the composer from the grid or anywhere outside a text field, never while typing or in the viewer', () => {
    const plain = (k: string, extra: Partial<KeyInput> = {}) => key(k, { ctrlKey: false, ...extra });
    expect(keyToCommand(plain('n'), 'grid')).toBe('compose');
    expect(keyToCommand(plain('N', { shiftKey: true }), 'other')).toBe('compose');
    expect(keyToCommand(plain('n', { inTextField: true }), 'other')).toBeNull();
    expect(keyToCommand(plain('n'), 'viewer')).toBeNull();
  });
});
