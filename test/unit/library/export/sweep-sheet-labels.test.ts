/** A sheet's words: escaped for SVG, cleaned of what XML forbids, cut to their box with an ellipsis. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cleanLabel,
  escapeXml,
  fitLabel,
  labelsSvg,
  textEm,
} from '../../../../electron/library/export/sweep-sheet-labels.js';

describe('sheet labels', () => {
  it('escapes every character SVG gives a meaning', () => {
    expect(escapeXml(`<a href="x">Tom & 'Jerry'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; &apos;Jerry&apos;&lt;/a&gt;',
    );
  });

  it('drops what XML forbids and keeps one line', () => {
    expect(cleanLabel('a\u0000b\u0008c\ufffe\nd\t e\ud800f')).toBe('abc d ef');
    // A pair of surrogates (an emoji) stays whole.
    expect(cleanLabel('ok 🎨')).toBe('ok 🎨');
  });

  it('cuts a long label to its box with an ellipsis, and leaves a short one whole', () => {
    expect(fitLabel('7.5', 200, 14)).toBe('7.5');
    const cut = fitLabel('a very long LoRA name that cannot fit in a narrow column', 100, 14);
    expect(cut.endsWith('…')).toBe(true);
    expect(textEm(cut) * 14).toBeLessThanOrEqual(100);
    expect(fitLabel('x'.repeat(100_000), 1_000_000, 12).length).toBeLessThanOrEqual(401);
    expect(fitLabel('anything', 2, 14)).toBe('');
  });

  it('never splits a surrogate pair and always fits its width', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.integer({ min: 0, max: 600 }), (text, width) => {
        const out = fitLabel(text, width, 12);
        expect(textEm(out) * 12).toBeLessThanOrEqual(Math.max(width, 0) + 1e-9);
        expect(out).toBe(cleanLabel(out));
        expect(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(out)).toBe(false);
      }),
    );
  });

  it('writes each label as text inside one SVG, nothing a label says becoming markup', () => {
    const svg = labelsSvg(
      { left: 10, top: 20, width: 400, height: 40 },
      [{ text: '</text><script>x</script>', rect: { left: 10, top: 20, width: 400, height: 40 } }],
      14,
    );
    expect(svg).not.toContain('<script>');
    expect(svg.match(/<text /g)).toHaveLength(1);
    expect(svg).toContain('x="0.0" y="20.0"');
  });
});
